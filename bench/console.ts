/**
 * The console's server time with 100,000 leads in one agent's pipeline:
 *   npm run bench:console                                   # embedded PGlite
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:console
 * Env: BENCH_LEADS (default 100000), BENCH_REQUESTS per page (default 40).
 *
 * Fills one agent's pipeline with BENCH_LEADS leads (each with its "created" history line and a
 * webhook delivery; one lead in ten with an appointment, one in a hundred with a reply, half of
 * those unread; spread over 90 days), logs in as that
 * agent, and times each console page in-process (`app.inject`: the server's own time, no
 * network) as the agent would open it. No timing is asserted anywhere; this is for the closing
 * note and for spotting regressions.
 */
import { randomUUID } from 'node:crypto';
import { adminInject, createTestApp } from '../test/support/app.ts';

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const PASSWORD = 'bench console passphrase';

const t = await createTestApp();
const agent = (
  await adminInject(t.app, 'POST', '/agents', {
    name: 'Bench Agent',
    email: 'bench@example.com',
    timezone: 'America/Chicago',
  })
).json<{ agent_id: string }>();
await adminInject(t.app, 'PUT', `/agents/${agent.agent_id}/password`, { password: PASSWORD });
const source = (
  await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/sources`, { name: 'Vendor' })
).json<{
  source_id: string;
}>();
const destination = randomUUID();
await t.db.query(
  `INSERT INTO sync_destinations (agent_id, destination_id, source_id, kind, url, secret)
   VALUES ($1, $2, $3, 'partner_sync', 'https://crm.example.com/hook', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')`,
  [agent.agent_id, destination, source.source_id],
);

const started = performance.now();
const CHUNK = 10_000;
for (let from = 0; from < LEADS; from += CHUNK) {
  const n = Math.min(CHUNK, LEADS - from);
  await t.db.query(
    `WITH made AS (
       SELECT i, gen_random_uuid() AS lead_id,
              now() - (i * interval '90 days' / $3::int) AS at,
              (ARRAY['Smith','Johnson','Garcia','Nguyen','Okafor','Kowalski','Haddad','Silva'])[1 + i % 8] AS last
         FROM generate_series($4::int, $4::int + $5::int - 1) AS i),
     leads_in AS (
       INSERT INTO leads (agent_id, lead_id, source_id, status, name, first_name, last_name, phone, email, fields, created_at, updated_at)
       SELECT $1, lead_id, $2, CASE WHEN i % 10 = 0 THEN 'Scheduled' ELSE 'New' END,
              'Prospect ' || i || ' ' || last, 'Prospect', last,
              lpad((2000000000 + i)::text, 10, '0'), 'p' || i || '@example.com',
              jsonb_build_object('state', (ARRAY['TX','FL','CA','NY','IL'])[1 + i % 5],
                                 'lead_category', (ARRAY['final-expense','mortgage-protection','medicare','iul'])[1 + i % 4],
                                 'coverage_amount', (10000 + i % 50 * 1000)::text),
              at, at
         FROM made RETURNING lead_id, created_at),
     history_in AS (
       INSERT INTO lead_history (agent_id, history_id, lead_id, source_id, event, details, created_at)
       SELECT $1, gen_random_uuid(), lead_id, $2, 'created', '{}'::jsonb, created_at FROM leads_in)
     INSERT INTO webhook_deliveries (agent_id, delivery_id, message_id, destination_id, lead_id, seq, topic, body, status, attempts, next_attempt_at, created_at)
     SELECT $1, gen_random_uuid(), gen_random_uuid(), $6, lead_id, 0, 'lead.created', '{}'::jsonb, 'delivered', 1, created_at, created_at
       FROM leads_in`,
    [agent.agent_id, source.source_id, LEADS, from, n, destination],
  );
}
await t.db.query(
  `INSERT INTO appointments (agent_id, appointment_id, lead_id, scheduled_at, appointment_timezone, schedule_type, status)
   SELECT agent_id, gen_random_uuid(), lead_id, created_at + interval '3 days', 'America/Chicago', 'appointment', 'booked'
     FROM leads WHERE agent_id = $1 AND status = 'Scheduled'`,
  [agent.agent_id],
);
// One lead in a hundred answered a text; half of those answers are unread.
await t.db.query(
  `INSERT INTO sms_replies (agent_id, reply_id, lead_id, inbound_id, phone, body, intent, received_at, read_at)
   SELECT agent_id, gen_random_uuid(), lead_id, gen_random_uuid(), phone, 'Yes, call me after 5', 'reply',
          created_at + interval '10 minutes',
          CASE WHEN row_number() OVER (ORDER BY lead_id) % 2 = 0 THEN created_at + interval '1 hour' END
     FROM leads WHERE agent_id = $1 AND right(phone, 2) = '00'`,
  [agent.agent_id],
);
await t.db.query('ANALYZE');
const fillSeconds = (performance.now() - started) / 1000;

// Log in as the agent, as a browser would.
const loginPage = await t.app.inject({ method: 'GET', url: '/console/login' });
const csrfCookie = [loginPage.headers['set-cookie']]
  .flat()
  .map((c) => (c ?? '').split(';')[0])
  .join('; ');
const csrf = /name="_csrf" value="([^"]+)"/.exec(loginPage.body)?.[1] ?? '';
const login = await t.app.inject({
  method: 'POST',
  url: '/console/login',
  headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ _csrf: csrf, email: 'bench@example.com', password: PASSWORD }).toString(),
});
const session = [login.headers['set-cookie']]
  .flat()
  .find((c) => c?.startsWith('leadgate_session='))
  ?.split(';')[0];
if (!session) throw new Error(`login failed: ${login.statusCode}`);

const { rows: middle } = await t.db.query<{ lead_id: string }>(
  `SELECT lead_id FROM leads WHERE agent_id = $1 ORDER BY created_at DESC OFFSET $2 LIMIT 1`,
  [agent.agent_id, Math.floor(LEADS / 2)],
);
const leadId = middle[0]?.lead_id ?? '';
// A deep page: the cursor "Older leads" would carry after half the pipeline.
const first = await t.app.inject({ method: 'GET', url: '/console/leads', headers: { cookie: session } });
const older =
  /href="(\/console\/leads\?[^"]*cursor=[^"]+)"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&') ?? '';

const pages: Array<[string, string]> = [
  ['leads, first page', '/console/leads'],
  ['leads, live poll (rows only)', '/console/leads/rows'],
  ['leads, second page (cursor)', older],
  ['leads, status=Scheduled', '/console/leads?status=Scheduled'],
  ['leads, category=medicare', '/console/leads?category=medicare'],
  ['leads, search a name (ILIKE)', '/console/leads?q=okafor'],
  ['leads, search nobody matches', '/console/leads?q=zzyzx'],
  ['leads, search a phone', '/console/leads?q=(200)%20004-2042'],
  ['lead page', `/console/leads/${leadId}`],
  ['lead thread, live poll', `/console/leads/${leadId}/thread`],
  ['today', '/console/today'],
  ['today, live poll', '/console/today/live'],
  ['inbox', '/console/inbox'],
  ['inbox, live poll (rows only)', '/console/inbox/rows'],
  ['agenda, week', '/console/agenda?view=week'],
  ['dial queue', '/console/dial-queue'],
  ['deliveries', '/console/deliveries'],
];

const rows = [];
for (const [label, url] of pages) {
  const times: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie: session } });
    times.push(performance.now() - t0);
    status = res.statusCode;
    bytes = res.body.length;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1));
  rows.push({
    page: label,
    status,
    'p50 ms': at(0.5),
    'p95 ms': at(0.95),
    'max ms': at(1),
    KB: Math.round(bytes / 1024),
  });
}

process.stdout.write(
  `\n${LEADS.toLocaleString('en-US')} leads in one agent's pipeline on ${t.db.kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}, filled in ${fillSeconds.toFixed(1)} s; ${REQUESTS} requests per page, node ${process.version}\n`,
);
console.table(rows);
await t.close();
