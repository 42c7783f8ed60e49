import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived: what a receiver verifies the signature over. */
  raw: string;
  /** The status this receiver answered. */
  answered: number;
}

export interface VerifiedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * A webhook receiver on loopback, as an integrator would write one: it records every request, and `verified()`
 * checks each signature with the `standardwebhooks` reference library before trusting the body. `status` sets what
 * it answers (500: an outage that still answers) and `delayMs` how late; `stop()` and `start()` take it down and bring it back on the same
 * port (an outage that refuses connections).
 */
export class WebhookReceiver {
  requests: ReceivedRequest[] = [];
  status = 204;
  /** How long it takes to answer, in milliseconds (a slow receiver). */
  delayMs = 0;
  port = 0;
  private server: Server | undefined;

  /** Whether it listens (a test may have stopped it to stand for an outage). */
  get listening(): boolean { return this.server !== undefined; }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answered = this.status;
        this.requests.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), answered });
        const answer = () => res.writeHead(answered).end();
        if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks?source=gatehouse`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Every accepted (2xx) delivery, each verified with `secret` as a receiver would; fails on a bad signature. */
  verified(secret: string): VerifiedEvent[] {
    const wh = new Webhook(secret);
    return this.requests.filter((r) => r.answered < 300).map((r) => {
      const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']) };
      const body = wh.verify(r.raw, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
      assert.equal(r.headers['content-type'], 'application/json');
      return { id: headers['webhook-id'], ...body };
    });
  }

  /** The verified events of `type`. */
  events(secret: string, type: string): VerifiedEvent[] {
    return this.verified(secret).filter((e) => e.type === type);
  }
}
