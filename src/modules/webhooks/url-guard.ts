import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { forbiddenAddressReason } from './address-rules.js';

/** The address a delivery connects to: the one that was checked, so the host is never resolved a second time. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** `lasting`: the URL itself is refused (its form, a forbidden address), as opposed to a resolution that may work later. */
export type TargetCheck = { ok: true; target: CheckedTarget } | { ok: false; reason: string; lasting: boolean };

/** What is wrong with a webhook URL's form, or undefined: absolute http(s), a host, no credentials. */
export function urlFormProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a valid absolute URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https URLs are accepted.';
  if (!url.hostname) return 'The URL needs a host.';
  // A password in the URL would be stored and shown in clear: receivers authenticate requests by their signature.
  if (url.username || url.password) return 'Credentials in the URL are not accepted: verify the webhook-signature header instead.';
  return undefined;
}

/**
 * Resolves the URL's host and checks every address it resolves to (docs/webhooks.md "Which addresses a webhook may reach"): one forbidden
 * address refuses the URL, so a name answering both a public and a private address (DNS rebinding) cannot slip
 * through. With `allowPrivate` any address is accepted. The check runs at creation, update and every delivery.
 */
export async function checkTarget(raw: string, allowPrivate: boolean): Promise<TargetCheck> {
  const problem = urlFormProblem(raw);
  if (problem) return { ok: false, reason: problem, lasting: true };
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (err) {
      return { ok: false, reason: `The host could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'}).`, lasting: false };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: 'The host could not be resolved.', lasting: false };
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason) return { ok: false, reason: `The host resolves to a forbidden address (${reason}).`, lasting: true };
    }
  }
  const first = addresses[0]!;
  return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
}
