import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GraphRequest {
  /** The lead's id, as the path names it. */
  leadgenId: string;
  accessToken: string | null;
  /** The whole URL, query included. */
  url: string;
}

/** What the fake answers one request with: a status and a JSON body. */
export type GraphReply = { status: number; body: unknown };

/**
 * Meta's Graph API on 127.0.0.1 for tests: `GET /v25.0/<leadgen_id>?access_token=…` is recorded
 * and answered by `answer` (by default the lead with a name, email and phone, as the Graph API
 * returns it: `id`, `created_time`, `field_data`).
 */
export async function startFakeGraph(answer: (r: GraphRequest, index: number) => GraphReply = graphLead) {
  const requests: GraphRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://graph.test');
    const r = {
      leadgenId: decodeURIComponent(url.pathname.split('/').pop() ?? ''),
      accessToken: url.searchParams.get('access_token'),
      url: req.url ?? '',
    };
    requests.push(r);
    const reply = answer(r, requests.length - 1);
    res.statusCode = reply.status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v25.0`,
    requests,
    setAnswer(next: (r: GraphRequest, index: number) => GraphReply) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A lead as the Graph API returns it; its contact is made from its id, so each id is its own person. */
export function graphLead(r: GraphRequest): GraphReply {
  const n = r.leadgenId.replace(/\D/g, '').slice(-4).padStart(4, '0');
  return {
    status: 200,
    body: {
      id: r.leadgenId,
      created_time: '2027-02-11T17:04:12+0000',
      field_data: [
        { name: 'full_name', values: [`Meta Lead ${r.leadgenId}`] },
        { name: 'email', values: [`meta.${r.leadgenId}@example.com`] },
        { name: 'phone_number', values: [`+1214555${n}`] },
        { name: 'state', values: ['TX'] },
      ],
    },
  };
}

/** The Graph API's answer to an expired or revoked token. */
export const TOKEN_EXPIRED: GraphReply = {
  status: 400,
  body: {
    error: {
      message: 'Error validating access token: Session has expired.',
      type: 'OAuthException',
      code: 190,
      error_subcode: 463,
      fbtrace_id: 'AbCdEf',
    },
  },
};

/** Meta's leadgen envelope announcing `ids`, as its webhook posts it. */
export function leadgenEnvelope(ids: string[], pageId = '1122334455'): string {
  return JSON.stringify({
    object: 'page',
    entry: [
      {
        id: pageId,
        time: 1770829452,
        changes: ids.map((id) => ({
          field: 'leadgen',
          value: {
            ad_id: '23851234567890123',
            form_id: '771234567890123',
            leadgen_id: id,
            created_time: 1770829452,
            page_id: pageId,
            adgroup_id: '23851234567890123',
          },
        })),
      },
    ],
  });
}
