/**
 * The calendar feed's server time with 5,000 appointments in it:
 *   npm run bench:calendar                                   # embedded PGlite
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:calendar
 * Env: BENCH_APPOINTMENTS (default 5000), BENCH_REQUESTS (default 20).
 *
 * One agent; BENCH_APPOINTMENTS leads from 80 days ago to 80 days ahead, each with an appointment
 * (names with a comma and an emoji, 200-character notes, a join URL); one in ten rescheduled (two
 * rows of one event), one in twenty canceled. Times GET of the feed in-process (`app.inject`, no
 * network), whole and as a 304: the server's own time (its log line's, until the answer is
 * written) and the client's (which also reads the 3.5 MB body). No timing is asserted anywhere.
 */
import { adminInject, createTestApp } from '../test/support/app.ts';

const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 5_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);

const t = await createTestApp();
const agent = (
  await adminInject(t.app, 'POST', '/agents', { name: 'Bench Agent', timezone: 'America/Chicago' })
).json<{ agent_id: string }>();
const source = (
  await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/sources`, { name: 'Bench source' })
).json<{ source_id: string }>();
const notes = 'Wants final expense, about $15,000; spouse on the call. '.repeat(4).slice(0, 200);
await t.db.query(
  `WITH made AS (
     SELECT i, gen_random_uuid() AS lead_id, gen_random_uuid() AS appointment_id,
            now() + ((i - $3::int / 2) * interval '160 days' / $3::int) AS at
       FROM generate_series(1, $3::int) AS i),
   leads_in AS (
     INSERT INTO leads (agent_id, lead_id, source_id, status, name, phone, fields)
     SELECT $1, lead_id, $2, 'Scheduled', 'Jenkins, Harold ' || i || ' 🏡', lpad((2000000000 + i)::text, 10, '0'),
            jsonb_build_object('notes', $4::text) FROM made RETURNING lead_id),
   old_times AS (
     INSERT INTO appointments (agent_id, appointment_id, lead_id, scheduled_at, appointment_timezone, status, sequence)
     SELECT $1, appointment_id, lead_id, at - interval '1 day', 'America/Chicago', 'rescheduled', 1
       FROM made WHERE i % 10 = 0 AND EXISTS (SELECT FROM leads_in l WHERE l.lead_id = made.lead_id))
   INSERT INTO appointments (agent_id, appointment_id, lead_id, scheduled_at, appointment_timezone, status,
                             join_url, series_id, sequence)
   SELECT $1, gen_random_uuid(), lead_id, at, 'America/Chicago', CASE WHEN i % 20 = 1 THEN 'canceled' ELSE 'booked' END,
          'https://meet.example/j/' || i, CASE WHEN i % 10 = 0 THEN appointment_id END, CASE WHEN i % 10 = 0 THEN 2 ELSE 0 END
     FROM made WHERE EXISTS (SELECT FROM leads_in l WHERE l.lead_id = made.lead_id)`,
  [agent.agent_id, source.source_id, APPOINTMENTS, notes],
);
await t.db.query('ANALYZE');
const { url } = (await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/calendar-feed`)).json<{
  url: string;
}>();
const path = new URL(url).pathname;

/** The server's own time of the last request, from its log line (the answer written, before the client reads it). */
function serverTime(): number {
  const line = t.logs.findLast((l) => l.includes('"request completed"'));
  return (JSON.parse(line ?? '{}') as { responseTime?: number }).responseTime ?? NaN;
}

async function time(
  headers: Record<string, string>,
  status: number,
): Promise<{ ms: number[]; server: number[]; bytes: number }> {
  const ms: number[] = [];
  const server: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const at = performance.now();
    const res = await t.app.inject({ method: 'GET', url: path, headers });
    ms.push(performance.now() - at);
    server.push(serverTime());
    if (res.statusCode !== status) throw new Error(`feed: ${res.statusCode} ${res.body.slice(0, 200)}`);
    bytes = res.rawPayload.length;
  }
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  return { ms: sorted(ms), server: sorted(server), bytes };
}

const median = (ms: number[]) => ms[Math.floor(ms.length / 2)] ?? 0;
const first = await t.app.inject({ method: 'GET', url: path });
const events = first.body.split('BEGIN:VEVENT').length - 1;
const whole = await time({}, 200);
const unchanged = await time({ 'if-none-match': String(first.headers.etag) }, 304);
process.stdout.write(
  `${t.db.kind}: ${APPOINTMENTS} appointments, ${events} events, ${(whole.bytes / 1024).toFixed(0)} KiB\n` +
    `feed 200: server median ${median(whole.server).toFixed(0)} ms, max ${(whole.server.at(-1) ?? 0).toFixed(0)} ms; ` +
    `with the in-process client reading the body, median ${median(whole.ms).toFixed(0)} ms (${REQUESTS} requests)\n` +
    `feed 304: server median ${median(unchanged.server).toFixed(0)} ms, max ${(unchanged.server.at(-1) ?? 0).toFixed(0)} ms\n`,
);
await t.close();
