import http from 'node:http';
import https from 'node:https';
import { publicOnlyLookup } from './destination-address.ts';

/** What a receiver answered. */
export interface PostAnswer {
  status: number;
  /** The answer's body, read only when asked for (`readBody`), else drained and dropped. */
  body: string;
}

const AGENT = { keepAlive: true, maxSockets: 64 };
const agents = {
  any: { 'http:': new http.Agent(AGENT), 'https:': new https.Agent(AGENT) },
  // Connections only to public addresses, checked as each connection is made.
  publicOnly: {
    'http:': new http.Agent({ ...AGENT, lookup: publicOnlyLookup }),
    'https:': new https.Agent({ ...AGENT, lookup: publicOnlyLookup }),
  },
};

/**
 * One outbound POST (webhooks, text providers) over node:http with kept-alive connections, not
 * `fetch`: the dispatcher sends thousands a second, and fetch's request, stream and abort-signal
 * objects cost it about a third of its CPU. A redirect is never followed (it could lead anywhere,
 * a private network included): its 3xx is the answer. The whole exchange, answer body included,
 * must end within `timeoutMs`, or the promise rejects.
 */
export function post(
  url: string,
  opts: {
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    readBody?: boolean;
    /** Refuse to connect to a host that resolves to a non-public address (destination-address.ts). */
    publicOnly?: boolean;
  },
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      // Never the URL itself: it may carry credentials, and the error is kept where agents see it.
      reject(new Error('invalid URL'));
      return;
    }
    const protocol = target.protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      reject(new Error(`unsupported protocol ${protocol}`));
      return;
    }
    const send = protocol === 'https:' ? https.request : http.request;
    const req = send(target, {
      method: 'POST',
      agent: agents[opts.publicOnly ? 'publicOnly' : 'any'][protocol],
      headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        if (opts.readBody) chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new Error('the answer was cut off'));
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.end(opts.body);
  });
}
