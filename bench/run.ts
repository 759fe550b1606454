/**
 * Live-delivery throughput: starts a real gateway process (embedded PGlite, and PostgreSQL when
 * BENCH_DATABASE_URL / TEST_DATABASE_URL is set), then drives it with autocannon.
 *   npm run bench                      # PGlite only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 20).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import {
  ADMIN_KEY,
  adminPost as admin,
  startLeadgate,
  stopLeadgate,
  withDataDir,
  withSchema,
} from './leadgate-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

interface Row {
  database: string;
  scenario: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  non2xx: number;
  errors: number;
  'leads stored': number;
}

async function startGateway(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const { child, match } = await startLeadgate(
    'serve',
    { LOG_LEVEL: 'warn', ...env },
    /listening on (http:\/\/\S+)/,
  );
  return { url: match[1] ?? '', child };
}

async function countLeads(url: string, agentId: string): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await fetch(`${url}/v1/admin/agents/${agentId}/leads?limit=200${q}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const page = (await res.json()) as { leads: unknown[]; next_cursor: string | null };
    n += page.leads.length;
    cursor = page.next_cursor;
  } while (cursor);
  return n;
}

// One counter for every scenario and target: each request is a new contact (a repeat phone would
// be merged, which is another, slower path).
let i = 0;

async function scenario(url: string, token: string, name: string, withAppointment: boolean) {
  const run = randomBytes(3).toString('hex');
  const result = await autocannon({
    url: `${url}/v1/inbound-lead-gateway`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          i++;
          const phone = `21${String(4_000_000 + i).padStart(8, '0')}`;
          const lead: Record<string, unknown> = {
            first_name: 'Bench',
            last_name: `Lead ${run}-${i}`,
            phone,
            email: `bench.${run}.${i}@example.com`,
            state: 'TX',
            zipcode: '75201',
            lead_category: 'final-expense',
          };
          if (withAppointment) {
            lead.scheduled_at = new Date(Date.UTC(2027, 0, 1) + i * 60_000).toISOString();
            lead.idempotency_key = `${run}-${i}`;
          }
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'x-source-token': token },
            body: JSON.stringify(lead),
          };
        },
      },
    ],
  });
  return { name, result };
}

async function benchTarget(database: string, env: Record<string, string>): Promise<Row[]> {
  const { url, child } = await startGateway(env);
  try {
    const agent = await admin<{ agent_id: string }>(url, '/agents', {
      name: 'Bench Agent',
      timezone: 'America/Chicago',
    });
    const source = await admin<{ token: string }>(url, `/agents/${agent.agent_id}/sources`, {
      name: 'bench',
    });
    const rows: Row[] = [];
    let before = 0;
    for (const [name, appt] of [
      ['plain lead', false],
      ['appointment + idempotency key', true],
    ] as const) {
      const { result } = await scenario(url, source.token, name, appt);
      const stored = await countLeads(url, agent.agent_id);
      rows.push({
        database,
        scenario: name,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
        'leads stored': stored - before,
      });
      before = stored;
    }
    return rows;
  } finally {
    await stopLeadgate(child);
  }
}

const rows: Row[] = [];
rows.push(...(await withDataDir((dir) => benchTarget('PGlite', { DATA_DIR: dir, DATABASE_URL: '' }))));
if (PG_URL) {
  rows.push(...(await withSchema(PG_URL, (url) => benchTarget('PostgreSQL', { DATABASE_URL: url }))));
}
console.log(
  `\n${SECONDS} s per scenario, ${CONNECTIONS} connections, one gateway process, node ${process.version}`,
);
console.table(rows);
