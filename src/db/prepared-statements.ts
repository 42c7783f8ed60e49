/**
 * Which SQL texts to send as named prepared statements on PostgreSQL, like PgJDBC's `prepareThreshold`: a text
 * run `THRESHOLD` times is given a name, after which each connection parses and plans it once and then only
 * binds and executes it. The hot paths (`GET me/`, refresh, login) run the same few texts over and over; most of
 * their server-side cost was parsing and planning. Bounded: at most `MAX_NAMED` texts are named per process
 * and the counts of texts not (yet) named are forgotten when `MAX_COUNTED` of them accumulate.
 */
const THRESHOLD = 3;
const MAX_NAMED = 500;
const MAX_COUNTED = 5000;

export function createStatementNamer() {
  const named = new Map<string, string>();
  const counts = new Map<string, number>();

  /** The statement name for `text`, or undefined while it should still go unnamed. */
  return function nameFor(text: string): string | undefined {
    const name = named.get(text);
    if (name !== undefined) return name;
    if (named.size >= MAX_NAMED) return undefined;
    const seen = (counts.get(text) ?? 0) + 1;
    if (seen < THRESHOLD) {
      if (counts.size >= MAX_COUNTED) counts.clear();
      counts.set(text, seen);
      return undefined;
    }
    counts.delete(text);
    const fresh = `gatehouse_${named.size + 1}`;
    named.set(text, fresh);
    return fresh;
  };
}
