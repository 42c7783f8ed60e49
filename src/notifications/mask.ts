/**
 * What the `console` email and SMS backends print outside debug: the message with every credential it carries
 * masked, since a server's standard output ends up in log files that more people read than the recipient
 * (docs/deployment.md "Email and SMS"). Masked: a link's path, query and fragment (its scheme and host stay, to show
 * where it leads), runs of 6 or more digits (one-time codes) and runs of 20 or more token characters (invitation and
 * confirmation tokens, 43 base64url characters; hex references). Dates, durations and words stay readable.
 */
export const MASK = '******';

const LINK = String.raw`([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#"'<>@]*@)?([^\s/?#"'<>]+)([^\s"'<>]*)`;
const CODE = String.raw`(?<!\d)\d{6,}(?!\d)`;
const TOKEN = String.raw`(?<![\w-])[\w-]{20,}(?![\w-])`;
// One pass, the link first: the host of a link is kept even when it is long, and nothing is masked twice.
const SECRETS = new RegExp(`${LINK}|${CODE}|${TOKEN}`, 'gi');

export function maskSecrets(text: string): string {
  return text.replace(SECRETS, (match, scheme?: string, host?: string, rest?: string) => {
    if (scheme === undefined) return MASK;
    // Credentials before the host (`user:pass@`) are dropped with the rest.
    return rest || match !== `${scheme}${host}` ? `${scheme}${host}/${MASK}` : match;
  });
}
