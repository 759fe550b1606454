import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const GATEWAY = '/v1/inbound-lead-gateway';

/** POSTs a JSON lead with the token in the header (or the path when `via: 'path'`). */
export function deliver(
  app: FastifyInstance,
  token: string | undefined,
  body: unknown,
  opts: { via?: 'header' | 'path'; headers?: Record<string, string>; raw?: string } = {},
): Promise<LightMyRequestResponse> {
  const viaPath = opts.via === 'path';
  return app.inject({
    method: 'POST',
    url: viaPath ? `${GATEWAY}/v/${token ?? ''}` : GATEWAY,
    headers: {
      'content-type': 'application/json',
      ...(!viaPath && token !== undefined ? { 'x-source-token': token } : {}),
      ...opts.headers,
    },
    payload: opts.raw ?? JSON.stringify(body),
  });
}

/** Real HTTP: `count` deliveries fired at once against `baseUrls` in turn. */
export async function deliverInParallel(
  baseUrls: string[],
  token: string,
  count: number,
  body: (i: number) => unknown,
  headers: (i: number) => Record<string, string> = () => ({}),
): Promise<Array<{ status: number; body: Record<string, unknown> }>> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${baseUrls[i % baseUrls.length]}${GATEWAY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-source-token': token, ...headers(i) },
        body: JSON.stringify(body(i)),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }),
  );
}

export async function countRows(
  db: { query: <T>(sql: string, params?: unknown[]) => Promise<{ rows: T[] }> },
  table: string,
  where = 'true',
  params: unknown[] = [],
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`,
    params,
  );
  return rows[0]?.n ?? 0;
}
