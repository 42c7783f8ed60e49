/**
 * What is kept and shown of an error that stopped a completion: the database's SQLSTATE code and the first line of
 * the message, with anything that looks like an address or a phone number taken out. A driver's message may quote
 * a value it refused ("invalid input syntax …: "…""), and the value may be the very data being erased.
 */
const EMAIL = /[^\s"'(),;:<>@]+@[^\s"'(),;:<>]+/g;
const PHONE = /\+?\d[\d .-]{5,}\d/g;
const QUOTED_VALUE = /: "[^"]*"/g;
const MAX_LENGTH = 300;

export function failureText(err: unknown): string {
  const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : null;
  const message = String((err as Error)?.message ?? err).split('\n')[0] ?? '';
  const safe = message.replace(EMAIL, '[redacted]').replace(PHONE, '[redacted]').replace(QUOTED_VALUE, ': "[redacted]"');
  return (code ? `${code}: ${safe}` : safe).slice(0, MAX_LENGTH);
}
