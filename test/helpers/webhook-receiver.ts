import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  received: Array<{ headers: IncomingMessage['headers']; body: unknown }>;
  /** Status the receiver answers with (set 503 to simulate an outage). */
  status: number;
  stop(): Promise<void>;
}

/** A real HTTP endpoint on loopback recording every JSON POST it receives. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver = { received: [], status: 200 } as unknown as WebhookReceiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (receiver.status < 300) receiver.received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  receiver.stop = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return receiver;
}
