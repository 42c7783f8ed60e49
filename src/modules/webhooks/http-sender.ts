import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './url-guard.js';

/** What a receiver answered: any status, including the ones that count as failures. */
export interface SendResult {
  status: number;
}

/** Longest a delivery may take, connection included; then the attempt fails and is retried later. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The receiver's answer is read and dropped; more than this is not waited for. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** A lookup that answers the checked address whatever it is asked: the connection goes where the guard looked. */
type AllCallback = (err: null, addresses: Array<{ address: string; family: number }>) => void;
const pinnedLookup = (address: string, family: 4 | 6): LookupFunction => (_host, options, callback) => {
  // Node asks for every address (`all`) when it may try several (autoSelectFamily): it gets the one that was checked.
  if ((options as { all?: boolean }).all) (callback as unknown as AllCallback)(null, [{ address, family }]);
  else callback(null, address, family);
};

/**
 * POSTs one delivery to the checked address. The Host header and the TLS server name stay the URL's host, so a
 * virtual host and its certificate are checked as usual. Redirects are never followed (Node does not follow them):
 * a 3xx is answered as it is, and counts as a failure.
 */
export function sendWebhook(target: CheckedTarget, headers: Record<string, string>, body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
  const { url } = target;
  const options: RequestOptions = {
    method: 'POST',
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Gatehouse-Webhooks/1' },
    lookup: pinnedLookup(target.address, target.family),
    agent: false,
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve, reject) => {
    const req = send(options, (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) res.destroy();
      });
      const done = () => { clearTimeout(timer); resolve({ status: res.statusCode ?? 0 }); };
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('error', (err) => { clearTimeout(timer); reject(err); });
    req.end(body);
  });
}
