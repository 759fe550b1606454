/**
 * The lead report's server time with 100,000 leads bought in the period:
 *   npm run bench:report                                   # embedded PGlite
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:report
 * Env: BENCH_LEADS (default 100000), BENCH_REQUESTS (default 10).
 *
 * One agent, four sources; BENCH_LEADS leads over the last 30 days, each with its purchase (one in
 * ten a repeat not billed), a text sent, a call outcome; one in ten with an appointment, one in
 * twenty returned, one in fifty sold. Times GET /v1/admin/agents/:id/report (the default 30 days,
 * JSON and CSV) in-process (`app.inject`: the server's own time, no network). No timing is
 * asserted anywhere; this is for docs/economics.md and for spotting regressions. Its last line is
 * the result as JSON, which `npm run bench` reads (BENCH_LEADS, BENCH_REQUESTS) for docs/benchmarks.md.
 */
import { adminInject, createTestApp } from '../test/support/app.ts';

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10);

const t = await createTestApp();
const agent = (
  await adminInject(t.app, 'POST', '/agents', { name: 'Bench Agent', timezone: 'America/Chicago' })
).json<{ agent_id: string }>();
const sources: string[] = [];
for (const [name, price] of [
  ['QuoteWizard', 3500],
  ['EverQuote', 2800],
  ['Facebook lead ads', 1200],
  ['SmartFinancial', 4200],
] as const) {
  const made = (await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/sources`, { name })).json<{
    source_id: string;
  }>();
  await adminInject(t.app, 'PATCH', `/sources/${made.source_id}`, { price_cents: price });
  sources.push(made.source_id);
}

const started = performance.now();
const CHUNK = 10_000;
for (let from = 0; from < LEADS; from += CHUNK) {
  const n = Math.min(CHUNK, LEADS - from);
  await t.db.query(
    `WITH made AS (
       SELECT i, gen_random_uuid() AS lead_id, ($2::uuid[])[1 + i % 4] AS source_id,
              now() - (i * interval '29 days' / $3::int) AS at
         FROM generate_series($4::int, $4::int + $5::int - 1) AS i),
     leads_in AS (
       INSERT INTO leads (agent_id, lead_id, source_id, status, name, phone, fields, created_at, updated_at)
       SELECT $1, lead_id, source_id, 'New', 'Prospect ' || i, lpad((2000000000 + i)::text, 10, '0'),
              jsonb_build_object('state', 'TX'), at, at FROM made RETURNING lead_id),
     bought AS (
       INSERT INTO lead_purchases (agent_id, purchase_id, lead_id, source_id, price_cents, billable, created_at)
       SELECT $1, gen_random_uuid(), m.lead_id, m.source_id, s.price_cents, i % 10 <> 0, m.at
         FROM made m JOIN sources s ON s.source_id = m.source_id
        WHERE EXISTS (SELECT FROM leads_in l WHERE l.lead_id = m.lead_id) RETURNING purchase_id, lead_id),
     texts AS (
       INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, status, send_at, sent_at, created_at)
       SELECT $1, gen_random_uuid(), lead_id, gen_random_uuid(), lpad((2000000000 + i)::text, 10, '0'), 'Hi', 'sent',
              at, at + (i % 7) * interval '1 minute', at FROM made),
     calls AS (
       INSERT INTO lead_history (agent_id, history_id, lead_id, event, details, created_at)
       SELECT $1, gen_random_uuid(), lead_id, 'call_outcome',
              jsonb_build_object('outcome', CASE WHEN i % 3 = 0 THEN 'reached' ELSE 'no_answer' END),
              at + (i % 90) * interval '1 minute' FROM made),
     booked AS (
       INSERT INTO appointments (agent_id, appointment_id, lead_id, scheduled_at, appointment_timezone, status)
       SELECT $1, gen_random_uuid(), lead_id, at + interval '2 days', 'America/Chicago', 'booked' FROM made WHERE i % 10 = 0)
     INSERT INTO lead_sales (agent_id, sale_id, lead_id, source_id, premium_cents, sold_at, created_at)
     SELECT $1, gen_random_uuid(), lead_id, source_id, 90000 + i % 10 * 5000, at + interval '5 days', at
       FROM made WHERE i % 50 = 0`,
    [agent.agent_id, sources, LEADS, from, n],
  );
}
await t.db.query(
  `INSERT INTO lead_returns (agent_id, return_id, lead_id, source_id, purchase_id, reason, status, price_cents, evidence, created_at)
   SELECT agent_id, gen_random_uuid(), lead_id, source_id, purchase_id, 'disconnected',
          CASE WHEN row_number() OVER () % 2 = 0 THEN 'credited' ELSE 'requested' END, price_cents, '{}', created_at
     FROM lead_purchases WHERE agent_id = $1 AND billable AND hashtext(purchase_id::text) % 20 = 0`,
  [agent.agent_id],
);
await t.db.query('ANALYZE');
const seeded = performance.now() - started;

async function time(url: string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const at = performance.now();
    const res = await adminInject(t.app, 'GET', url);
    ms.push(performance.now() - at);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  return ms.sort((a, b) => a - b);
}

const median = (ms: number[]) => ms[Math.floor(ms.length / 2)] ?? 0;
const json = await time(`/agents/${agent.agent_id}/report`);
const csv = await time(`/agents/${agent.agent_id}/report?format=csv`);
const totals = (await adminInject(t.app, 'GET', `/agents/${agent.agent_id}/report`)).json<{
  totals: { deliveries: number };
}>().totals;
process.stdout.write(
  `${t.db.kind}: ${LEADS} leads (${totals.deliveries} deliveries in the period) seeded in ${(seeded / 1000).toFixed(1)} s\n` +
    `report JSON: median ${median(json).toFixed(0)} ms, max ${(json.at(-1) ?? 0).toFixed(0)} ms (${REQUESTS} requests)\n` +
    `report CSV:  median ${median(csv).toFixed(0)} ms, max ${(csv.at(-1) ?? 0).toFixed(0)} ms\n` +
    `${JSON.stringify({ leads: LEADS, json_ms: Math.round(median(json)), csv_ms: Math.round(median(csv)) })}\n`,
);
await t.close();
