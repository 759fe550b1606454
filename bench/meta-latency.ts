/**
 * Meta Lead Ads: the time from a signed leadgen envelope's POST to its lead row, through a real
 * `leadgate serve` (its fetcher on) and a fake Graph API on this machine.
 *   npx tsx bench/meta-latency.ts                       # embedded database
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/meta-latency.ts
 * Env: BENCH_ENVELOPES (default 50), sent one at a time; the lead is looked for every 2 ms through
 * the admin API. No timing is asserted anywhere; this is for the closing note and decision 0061.
 */
import { signMetaPayload } from '../src/gateway/meta-envelope.ts';
import { leadgenEnvelope, startFakeGraph } from '../test/support/fake-graph.ts';
import {
  ADMIN_KEY,
  provisionSource,
  startLeadgate,
  stopLeadgate,
  withDataDir,
  withSchema,
} from './leadgate-process.ts';

const ENVELOPES = Number(process.env.BENCH_ENVELOPES ?? 50);
const PG_URL = process.env.BENCH_DATABASE_URL;
const APP_SECRET = 'bench-app-secret';

async function measure(env: Record<string, string>): Promise<number[]> {
  const graph = await startFakeGraph();
  const { child, match } = await startLeadgate(
    ['serve'],
    { ...env, META_GRAPH_URL: graph.url, SECRETS_KEY: 'bench-secrets-key-0123456789abcdef-0123' },
    /listening on (http:\/\/\S+)/,
  );
  const url = match[1] ?? '';
  const auth = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
  try {
    const source = await provisionSource(url);
    await fetch(`${url}/v1/admin/sources/${source.sourceId}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({ meta: { page_access_token: 'EAAG-bench', app_secret: APP_SECRET } }),
    });
    const newest = async () => {
      const res = await fetch(`${url}/v1/admin/agents/${source.agentId}/leads?limit=1`, { headers: auth });
      return ((await res.json()) as { leads: Array<{ name: string }> }).leads[0]?.name;
    };
    const times: number[] = [];
    for (let i = 0; i < ENVELOPES; i++) {
      const id = String(800_000_000_000 + i);
      const body = leadgenEnvelope([id]);
      const started = performance.now();
      const res = await fetch(`${url}/v1/inbound-lead-gateway/v/${source.token}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signMetaPayload(body, APP_SECRET),
        },
        body,
      });
      if (res.status !== 200) throw new Error(`envelope ${i}: ${res.status} ${await res.text()}`);
      while ((await newest()) !== `Meta Lead ${id}`) await new Promise((resolve) => setTimeout(resolve, 2));
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await stopLeadgate(child);
    await graph.close();
  }
}

function summary(database: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    database,
    envelopes: times.length,
    p50_ms: Math.round(at(0.5)),
    p90_ms: Math.round(at(0.9)),
    max_ms: Math.round(at(1)),
  };
}

const rows = [summary('embedded', await withDataDir((dir) => measure({ DATA_DIR: dir, DATABASE_URL: '' })))];
if (PG_URL) rows.push(summary('PostgreSQL', await withSchema(PG_URL, (db) => measure({ DATABASE_URL: db }))));
console.table(rows);
