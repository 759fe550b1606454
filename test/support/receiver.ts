import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 for tests: records every request and answers with the status
 * `answer` decides (200 unless told otherwise).
 */
export async function startReceiver(
  answer: (r: Received, index: number) => number = () => 200,
  opts: { delayMs?: number } = {},
) {
  const received: Received[] = [];
  /** webhook-ids being answered right now, and how often one arrived while already in flight. */
  const inFlight = new Set<string>();
  let overlaps = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body };
      received.push(r);
      const id = String(req.headers['webhook-id'] ?? '');
      if (id && inFlight.has(id)) overlaps++;
      if (id) inFlight.add(id);
      const status = answer(r, received.length - 1);
      setTimeout(() => {
        inFlight.delete(id);
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(status < 300 ? '{"ok":true}' : '{"ok":false}');
      }, opts.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    overlaps: () => overlaps,
    setAnswer(next: (r: Received, index: number) => number) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
