/**
 * Text someone wrote, made fit for one line of a message: an email's subject or a sentence of its body.
 *
 * Line breaks would let the writer add lines of their own to a message Gatehouse signs with its sender address (and,
 * in a subject, headers); other control characters hide or reorder what the reader sees. The bidirectional controls
 * are the Trojan Source characters (CVE-2021-42574): they can show "moc.elpmaxe" as "example.com". Joiners (U+200C,
 * U+200D) stay: scripts and emoji need them.
 */

// Every line break and tab, C0 and Unicode (NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR): each run becomes one space.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
// The other C0 and C1 controls, DEL, and the bidirectional marks, embeddings, overrides and isolates: removed.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The most characters of user-written text a message shows (docs/organizations.md "Who may invite, and how often"). */
export const MAX_USER_TEXT = 80;

/**
 * `text` on one line, without control characters, trimmed, and cut to `max` characters (Unicode code points, so a
 * cut never splits a surrogate pair).
 */
export function plainLine(text: string, max = Number.POSITIVE_INFINITY): string {
  const line = text.replace(BREAKS, ' ').replace(CONTROLS, '').replace(/ {2,}/g, ' ').trim();
  if (line.length <= max) return line;
  const chars = Array.from(line);
  return chars.length <= max ? line : chars.slice(0, max).join('').trimEnd();
}
