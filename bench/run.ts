/**
 * `npm run bench`: live deliveries as lead vendors send them, against a real gateway process on the
 * embedded database and (with DATABASE_URL, BENCH_DATABASE_URL or TEST_DATABASE_URL) on PostgreSQL,
 * beside two reference ceilings measured in the same run, each next to what it is compared with: a
 * bare Fastify route that parses the same body (`bench/bare-fastify.ts`), right before each gateway's
 * rejections, and pgbench running one delivery's SQL (`bench/delivery.pgbench.sql`), right after
 * each PostgreSQL run: with 32 clients, the ceiling, then with the bench's connections, for the
 * database's own latency at that concurrency (p50/p90/p99 from pgbench's log of every transaction).
 * On PostgreSQL it runs again with two processes (`leadgate serve --workers 2`), then counts what a
 * correct gateway never makes: two leads for one idempotency key, two leads for one phone. Last, the
 * lead report's server time at 100,000 leads on each database (`bench/report.ts`). After each
 * scenario it waits for the dispatcher to empty the outbox, send the texts and do the cadence steps that are due ("drain
 * s"), so one scenario's follow-ups do not run during the next one's measurement.
 * Prints a table and writes bench/results/latest.json; after a whole run (neither BENCH_TARGETS nor
 * BENCH_SCENARIOS set, and not BENCH_DOCS=0), also the summary in docs/benchmarks.md and the README's
 * table (`bench/summary.ts`). No timing is asserted anywhere.
 *   npm run bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
 * Env: BENCH_SECONDS per scenario (default 10), BENCH_CONNECTIONS (default 50); for a partial run,
 * BENCH_TARGETS (`bare,embedded,postgres,pgbench,postgres-2,report`) and BENCH_SCENARIOS (names, or the
 * start of names, comma-separated); BENCH_FLOOD_RATE, the made-up tokens a second sent beside new
 * leads in the `flood` scenario (default 5000); BENCH_LOG_LEVEL for the servers (default warn);
 * BENCH_DISPATCHER says where the follow-ups are handed on: `serve` (the default) in the server,
 * `worker` in a `leadgate worker` process beside each PostgreSQL server (LEADGATE_DISPATCHER=0 for
 * the server; its CPU and memory count as the server's), `off` nowhere (they stay in the outbox,
 * undrained, so the figures are the deliveries' alone). The embedded database belongs to one
 * process, so there `worker` means `serve`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { contactRule, nextAllowedInstant } from '../src/automations/contact-window.ts';
import { leadZone } from '../src/automations/lead-zone.ts';
import { createDb } from '../src/db/index.ts';
import { hashToken } from '../src/sources/tokens.ts';
import { editQuery } from '../test/support/db.ts';
import { lead } from './lead.ts';
import { peakRssMb, resetPeakRss, withCpu } from './proc.ts';
import { describeMachine, writeSummaries } from './summary.ts';
import {
  adminPost,
  provisionAgencySource,
  provisionCadenceSource,
  provisionSource,
  serverFigures,
  startLeadgate,
  stopLeadgate,
  withDataDir,
  withSchema,
} from './leadgate-process.ts';

const STARTED = new Date();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PG_URL = process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const DISPATCHERS = ['serve', 'worker', 'off'] as const;
const DISPATCHER = (process.env.BENCH_DISPATCHER ?? 'serve').toLowerCase() as (typeof DISPATCHERS)[number];
if (!DISPATCHERS.includes(DISPATCHER)) throw new Error(`BENCH_DISPATCHER: one of ${DISPATCHERS.join(', ')}`);
const GATEWAY = '/v1/inbound-lead-gateway';
const FLOOD_RATE = Number(process.env.BENCH_FLOOD_RATE ?? 5000);
const SEEDED = 500;
const list = (name: string) =>
  (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
const TARGETS = list('BENCH_TARGETS');
const ONLY = list('BENCH_SCENARIOS');
const wanted = (target: string) => TARGETS.length === 0 || TARGETS.includes(target);
const chosen = (scenario: Scenario) =>
  ONLY.length === 0 || ONLY.some((name) => scenario.name.toLowerCase().startsWith(name));

interface Row {
  target: string;
  scenario: string;
  'req/s': number;
  'p50 ms': number | null;
  'p90 ms': number | null;
  'p99 ms': number | null;
  errors: number;
  'peak RSS MB': number | null;
  /** CPU the server process used, and every `postgres` process on the machine, in % of one core. */
  'server CPU %'?: number | null;
  'postgres CPU %'?: number | null;
  /** CPU this process (autocannon, making the requests) used: near 100 %, it may be the limit. */
  'bench CPU %'?: number | null;
  /** Seconds until the dispatcher had sent every follow-up of the scenario's deliveries. */
  'drain s'?: number | null;
  /**
   * Per request, from the scenario's start until the dispatcher had sent its follow-ups: the CPU
   * the server and PostgreSQL used (µs) and the WAL PostgreSQL wrote (KB), autovacuum and
   * checkpoints included. What a delivery costs moves less with the machine's speed than how many
   * go through a second, so these compare two versions of the code where the rates cannot.
   */
  'server µs/req'?: number | null;
  'postgres µs/req'?: number | null;
  'WAL KB/req'?: number | null;
}

interface Call {
  method: 'POST' | 'GET';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Scenario {
  name: string;
  /** The status a correct answer has. */
  expect: number;
  next(i: number): Call;
  /** Load sent at the same time on connections of its own, at `rate` requests a second. */
  beside?: { scenario: Scenario; rate: number };
}

/**
 * A token the gateway issued, then revoked by regenerating it: what a vendor still posting with an
 * old token presents. It carries the installation's check, so it is looked up (a made-up one is not).
 */
async function revokedToken(url: string): Promise<string> {
  const old = await provisionSource(url);
  await adminPost(url, `/sources/${old.sourceId}/regenerate`, {});
  return old.token;
}

interface Target {
  url: string;
  token: string;
  /** An agency's source: its leads are routed among three producers. */
  agencyToken: string;
  /** A source whose new leads each follow a 30-step cadence. */
  cadenceToken: string;
  run: string;
  /** A token the gateway issued and the agent then regenerated: it names no source now. */
  staleToken: string;
  /** Deliveries made before measuring: repeats merge into them, replays resend them. */
  seeded: Array<{ body: string; key: string; phone: string }>;
}

const json = (token: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'x-source-token': token,
  ...extra,
});

/** The scenarios, each a fresh valid-looking contact per request unless it is a repeat or a replay. */
function scenarios(t: Target): Scenario[] {
  let n = 0;
  const fresh = (extra: Record<string, unknown> = {}): Call => {
    n += 1;
    const key = `${t.run}-${n}`;
    return {
      method: 'POST',
      path: GATEWAY,
      headers: json(t.token, { 'idempotency-key': key }),
      body: JSON.stringify({ ...lead(t.run, 1_000_000 + n), ...extra }),
    };
  };
  const seededAt = (i: number) => t.seeded[i % t.seeded.length] ?? { body: '{}', key: 'none', phone: '' };
  const plain: Scenario = { name: 'new lead', expect: 200, next: () => fresh() };
  // The same new leads through an agency's source: routed among three producers, one at a time.
  const agency: Scenario = {
    name: 'agency: new lead, 3 producers',
    expect: 200,
    next: () => {
      const call = fresh();
      return { ...call, headers: { ...call.headers, 'x-source-token': t.agencyToken } };
    },
  };
  // The same new leads enrolled in a 30-step cadence when the dispatcher hands them on.
  const cadence: Scenario = {
    name: 'new lead, 30-step cadence',
    expect: 200,
    next: () => {
      const call = fresh();
      return { ...call, headers: { ...call.headers, 'x-source-token': t.cadenceToken } };
    },
  };
  const appointment: Scenario = {
    name: 'appointment (split date/time)',
    expect: 200,
    next: (i) => fresh({ appointment_date: '01/15/2027', appointment_time: `${1 + (i % 8)}:30 PM` }),
  };
  const post = (headers: Record<string, string>, body: string): Call => ({
    method: 'POST',
    path: GATEWAY,
    headers,
    body,
  });
  const repeat: Scenario = {
    name: 'repeat contact (merge)',
    expect: 200,
    next: (i) =>
      post(
        json(t.token),
        JSON.stringify({ name: 'Bench Repeat', phone: seededAt(i).phone, notes: `call ${i}` }),
      ),
  };
  const replay: Scenario = {
    name: 'retry with a used key',
    expect: 200,
    next: (i) => post(json(t.token, { 'idempotency-key': seededAt(i).key }), seededAt(i).body),
  };
  const listen: Scenario = { name: 'Listen mode', expect: 200, next: () => fresh({ listen: true }) };
  // A sender that times out and retries at once: every new lead sent 5 times in a row, with one key,
  // the copies in flight together on different connections.
  const storm: Scenario = {
    name: 'retry storm (each new lead 5× at once, one key)',
    expect: 200,
    next: (i) => {
      const k = Math.floor(i / 5);
      return post(
        json(t.token, { 'idempotency-key': `${t.run}-storm-${k}` }),
        JSON.stringify(lead(t.run, 5_000_000 + k)),
      );
    },
  };
  // 65 % new, 15 % appointments, 10 % repeats, 5 % retries, 5 % Listen, in a fixed order of 20.
  const mixOrder = [...Array<Scenario>(13).fill(plain), ...Array<Scenario>(3).fill(appointment)];
  mixOrder.push(repeat, repeat, replay, listen);
  const mix: Scenario = {
    name: 'mix',
    expect: 200,
    next: (i) => (mixOrder[i % mixOrder.length] ?? plain).next(i),
  };
  const invalidToken: Scenario = {
    name: 'invalid token, a new one each time (401)',
    expect: 401,
    next: (i) => ({ ...fresh(), headers: json(randomUUID(), { 'x-bench': String(i) }) }),
  };
  // A vendor still posting with a token the agent revoked: the same unknown token again and again.
  const staleToken: Scenario = {
    name: 'revoked token, repeated (401)',
    expect: 401,
    next: () => ({ ...fresh(), headers: json(t.staleToken) }),
  };
  const wrongMethod: Scenario = {
    name: 'GET (405)',
    expect: 405,
    next: () => ({ method: 'GET', path: GATEWAY, headers: {} }),
  };
  // Real senders while garbage pours in: new leads as in `plain`, and beside them made-up tokens at a
  // fixed rate on connections of their own. Compared with `plain` alone, what the flood takes.
  const flood: Scenario = {
    ...plain,
    name: `flood: new leads beside made-up tokens at ${FLOOD_RATE}/s`,
    beside: { scenario: invalidToken, rate: FLOOD_RATE },
  };
  // A sender's broken template posting cut-off JSON with a good token, again and again: each is
  // answered 400 and kept as a refused sample for the agent (the newest 100 per source).
  const malformed: Scenario = {
    name: 'malformed JSON, a valid token (400)',
    expect: 400,
    next: (i) =>
      post(
        json(t.token),
        `{"name": "Bench Broken", "phone": "2145550${String(i % 1000).padStart(3, '0')}", `,
      ),
  };
  return [
    plain,
    cadence,
    agency,
    appointment,
    repeat,
    replay,
    storm,
    listen,
    mix,
    flood,
    invalidToken,
    staleToken,
    wrongMethod,
    malformed,
  ];
}

async function drive(
  url: string,
  scenario: Scenario,
  rate?: number,
): Promise<{ result: autocannon.Result; errors: number }> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        setupRequest: (req) => {
          const call = scenario.next(i++);
          return {
            ...req,
            method: call.method,
            path: call.path,
            headers: call.headers,
            body: call.body ?? '',
          };
        },
      },
    ],
  });
  const answered = Object.entries(result.statusCodeStats ?? {});
  const wrong = answered
    .filter(([code]) => Number(code) !== scenario.expect)
    .reduce((s, [, v]) => s + (v.count ?? 0), 0);
  if (wrong > 0) {
    const statuses = answered.map(([code, v]) => `${code}: ${v.count ?? 0}`).join(', ');
    console.error(`${scenario.name}: ${wrong} answers other than ${scenario.expect} (${statuses})`);
  }
  return { result, errors: wrong + result.errors + result.timeouts };
}

function row(
  target: string,
  name: string,
  result: autocannon.Result,
  errors: number,
  rss: number | null,
): Row {
  return {
    target,
    scenario: name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p90 ms': result.latency.p90,
    'p99 ms': result.latency.p99,
    errors,
    'peak RSS MB': rss,
  };
}

async function seed(url: string, token: string, run: string): Promise<Target['seeded']> {
  const seeded: Target['seeded'] = [];
  for (let batch = 0; batch < SEEDED; batch += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async (_, k) => {
        const body = lead(run, batch + k);
        const key = `${run}-seed-${batch + k}`;
        const text = JSON.stringify(body);
        const res = await fetch(`${url}${GATEWAY}`, {
          method: 'POST',
          headers: json(token, { 'idempotency-key': key }),
          body: text,
        });
        if (res.ok) seeded.push({ body: text, key, phone: String(body.phone) });
      }),
    );
  }
  return seeded;
}

/**
 * Waits until the server's outbox is empty and no text is due (the texts of new leads, sent by the
 * dispatcher's text loop after their messages are handed on); returns the seconds it took (null:
 * not within 5 min).
 */
async function drained(url: string): Promise<number | null> {
  const t0 = Date.now();
  while (Date.now() - t0 < 300_000) {
    const { outbox, textsDue, stepsDue } = await serverFigures(url);
    if (outbox === 0 && textsDue === 0 && stepsDue === 0) return Math.round((Date.now() - t0) / 100) / 10;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}

/**
 * What must never be, whatever the load: two leads for one idempotency key, or two leads for one
 * phone (the bench's contacts each have a phone of their own; repeats merge).
 */
async function duplicates(schemaUrl: string, agentId: string) {
  const db = await createDb({ databaseUrl: schemaUrl });
  try {
    const { rows } = await db.query<{ leads: number; by_key: number; by_phone: number }>(
      `SELECT (SELECT count(*)::int FROM leads WHERE agent_id = $1) AS leads,
              (SELECT count(*)::int FROM (SELECT 1 FROM leads WHERE agent_id = $1 AND idempotency_key IS NOT NULL
                 GROUP BY idempotency_key HAVING count(*) > 1) d) AS by_key,
              (SELECT count(*)::int FROM (SELECT 1 FROM leads WHERE agent_id = $1 AND phone IS NOT NULL
                 GROUP BY phone HAVING count(*) > 1) d) AS by_phone`,
      [agentId],
    );
    const r = rows[0];
    return {
      leads: r?.leads ?? 0,
      'keys with 2+ leads': r?.by_key ?? 0,
      'phones with 2+ leads': r?.by_phone ?? 0,
    };
  } finally {
    await db.close();
  }
}

/** How one gateway run goes: `leadgate`'s arguments, which scenarios, what to measure before its rejections. */
interface GatewayRun {
  args?: string[];
  only?: (scenario: Scenario) => boolean;
  beforeRejections?: () => Promise<Row | null>;
}

/**
 * The gateway on one database, every scenario in turn; returns the rows, what pgbench needs and,
 * on PostgreSQL, the duplicate count.
 */
async function benchGateway(
  label: string,
  env: Record<string, string>,
  { args = ['serve'], only = () => true, beforeRejections = async () => null }: GatewayRun = {},
) {
  const inWorker = DISPATCHER === 'worker' && Boolean(env.DATABASE_URL);
  const serverEnv = {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ...(DISPATCHER === 'off' || inWorker ? { LEADGATE_DISPATCHER: '0' } : {}),
    ...env,
  };
  const { child, match } = await startLeadgate(args, serverEnv, /listening on (http:\/\/\S+)/);
  let worker: ChildProcess | null = null;
  const wal = env.DATABASE_URL ? await walMeter(env.DATABASE_URL) : null;
  try {
    // At info, for its start-up line; after it, it logs a line a round (a few a second), not a request.
    if (inWorker) {
      const workerEnv = { ...serverEnv, LOG_LEVEL: 'info' };
      worker = (await startLeadgate(['worker'], workerEnv, /leadgate worker started/)).child;
    }
    const pids = [child.pid, worker?.pid];
    const url = match[1] ?? '';
    const source = await provisionSource(url);
    const run = randomBytes(3).toString('hex');
    const target: Target = {
      url,
      token: source.token,
      agencyToken: (await provisionAgencySource(url)).token,
      cadenceToken: (await provisionCadenceSource(url)).token,
      staleToken: await revokedToken(url),
      run,
      seeded: await seed(url, source.token, run),
    };
    const rows: Row[] = [];
    const list = scenarios(target).filter((s) => chosen(s) && only(s));
    const firstRejection = list.find((s) => s.expect >= 400);
    for (const scenario of list) {
      if (scenario === firstRejection) {
        // The gateway idles meanwhile: its outbox was drained after the scenario before.
        const ceiling = await beforeRejections();
        if (ceiling) rows.push(ceiling);
      }
      resetPeakRss(pids);
      const walFrom = await wal?.position();
      const { value, server, postgres, client, used } = await withCpu(pids, () =>
        Promise.all([
          drive(url, scenario),
          scenario.beside ? drive(url, scenario.beside.scenario, scenario.beside.rate) : null,
        ]),
      );
      const [main, beside] = value;
      const rss = peakRssMb(pids);
      const drain = await withCpu(pids, async () => (DISPATCHER === 'off' ? null : drained(url)));
      // Beside a flood, the CPU per request would count the flood's too: left out.
      const requests = beside ? 0 : main.result.requests.total;
      // `total` per request, in `unit`s, to `digits` decimals.
      const perRequest = (total: number, unit: number, digits = 0) =>
        requests > 0 ? Number((total / requests / unit).toFixed(digits)) : null;
      rows.push({
        ...row(label, scenario.name, main.result, main.errors, rss),
        'server CPU %': server,
        'postgres CPU %': wal ? postgres : null,
        'bench CPU %': client,
        'drain s': drain.value,
        'server µs/req': perRequest(used.server + drain.used.server, 1e-6),
        'postgres µs/req': wal ? perRequest(used.postgres + drain.used.postgres, 1e-6) : null,
        'WAL KB/req': wal && walFrom ? perRequest(await wal.since(walFrom), 1024, 1) : null,
      });
      if (beside && scenario.beside) {
        const name = `  beside it: ${scenario.beside.scenario.name}`;
        rows.push(row(label, name, beside.result, beside.errors, null));
      }
    }
    const checked = env.DATABASE_URL ? await duplicates(env.DATABASE_URL, source.agentId) : null;
    return { rows, checked, ...source };
  } finally {
    await wal?.close();
    if (worker) await stopLeadgate(worker);
    await stopLeadgate(child);
  }
}

/**
 * PostgreSQL's write-ahead log position, and the bytes written since one: every process's writes
 * (the gateway's, its dispatcher's, autovacuum's), since the log is the server's.
 */
async function walMeter(databaseUrl: string) {
  const db = await createDb({ databaseUrl });
  return {
    async position(): Promise<string> {
      const { rows } = await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      return rows[0]?.lsn ?? '0/0';
    },
    async since(lsn: string): Promise<number> {
      const { rows } = await db.query<{ bytes: number }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS bytes',
        [lsn],
      );
      return Number(rows[0]?.bytes ?? 0);
    },
    close: () => db.close(),
  };
}

/** The bare Fastify ceiling's row name, measured before `target`'s rejections (or alone). */
const bareName = (target: string | null) =>
  `bare Fastify, same body (ceiling a)${target ? `, before ${target}'s rejections` : ''}`;

async function benchBareFastify(target: string | null): Promise<Row> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-fastify.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`bare Fastify exited ${code}`)));
  });
  try {
    const body = JSON.stringify(lead('bare', 1));
    const scenario: Scenario = {
      name: bareName(target),
      expect: 200,
      next: () => ({ method: 'POST', path: GATEWAY, headers: { 'content-type': 'application/json' }, body }),
    };
    const { value, server, client } = await withCpu([child.pid], () => drive(url, scenario));
    return {
      ...row('reference', scenario.name, value.result, value.errors, peakRssMb([child.pid])),
      'server CPU %': server,
      'bench CPU %': client,
    };
  } finally {
    await stopLeadgate(child);
  }
}

function pgbenchBinary(): string | null {
  if (spawnSync('pgbench', ['--version']).status === 0) return 'pgbench';
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  for (const version of readdirSync(root).sort().reverse()) {
    const candidate = `${root}/${version}/bin/pgbench`;
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * The pgbench ceiling's row name, measured after `target`'s run: 32 clients, the ceiling the rates
 * are divided by; 50, the bench's own connections, for the database's latency at that concurrency.
 */
const pgbenchName = (target: string, clients = 32) =>
  clients === 32
    ? `pgbench, one delivery’s SQL, 32 clients (ceiling b), after ${target}`
    : `pgbench, one delivery’s SQL, ${clients} clients (its latency), after ${target}`;

/**
 * The latency of each transaction pgbench logged (`-l`: a file a thread, a line a transaction, its
 * third field the latency in µs), as p50 / p90 / p99 in ms: the database's own tail, to read the
 * gateway's p99 beside.
 */
function pgbenchLatencies(dir: string): { p50: number; p90: number; p99: number } | null {
  const us = readdirSync(dir)
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
    .map((line) => Number(line.split(' ')[2]))
    .filter((n) => Number.isFinite(n) && n > 0)
    .sort((a, b) => a - b);
  if (us.length === 0) return null;
  const at = (q: number) =>
    Math.round((us[Math.min(us.length - 1, Math.floor(q * us.length))] ?? 0) / 100) / 10;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

/** pgbench, `clients` clients, prepared, the delivery script, in the schema the gateway just used. */
function benchPgbench(
  target: string,
  schemaUrl: string,
  ids: { agentId: string; sourceId: string; token: string },
  clients = 32,
): Row | null {
  const bin = pgbenchBinary();
  if (!bin) return null;
  let options = '';
  const url = editQuery(schemaUrl, (p) => {
    options = p.get('options') ?? '';
    p.delete('options');
  });
  const logs = mkdtempSync(join(tmpdir(), 'leadgate-pgbench-'));
  const out = spawnSync(
    bin,
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(SECONDS),
      '-f',
      'bench/delivery.pgbench.sql',
      '-l',
      '--log-prefix',
      join(logs, 'tx'),
      '-D',
      `aid=${ids.agentId}`,
      '-D',
      `sid=${ids.sourceId}`,
      '-D',
      `tokenhash=${hashToken(ids.token)}`,
      url,
    ],
    { env: { ...process.env, PGOPTIONS: options }, encoding: 'utf8' },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(out.stdout)?.[1]);
  const latency = pgbenchLatencies(logs);
  rmSync(logs, { recursive: true, force: true });
  if (!Number.isFinite(tps)) {
    console.error(`pgbench failed:\n${out.stdout}\n${out.stderr}`);
    return null;
  }
  return {
    target: 'reference',
    scenario: pgbenchName(target, clients),
    'req/s': Math.round(tps),
    'p50 ms': latency?.p50 ?? null,
    'p90 ms': latency?.p90 ?? null,
    'p99 ms': latency?.p99 ?? null,
    errors: Number(/number of failed transactions: (\d+)/.exec(out.stdout)?.[1] ?? 0),
    'peak RSS MB': null,
  };
}

// Each ceiling is measured beside what it is compared with, not once for the whole run: this
// machine's speed moves within minutes (bare Fastify 32,814 req/s at the start of one run and
// 17,588 at the start of the next, a quarter of an hour apart). Bare Fastify runs right before each
// target's rejections, pgbench right after each PostgreSQL run, in that run's schema.
const rows: Row[] = [];
const checks: Record<string, Record<string, number>> = {};
const bareBefore = (target: string) => async () => (wanted('bare') ? benchBareFastify(target) : null);

/** The gateway on PostgreSQL in a schema of its own, its duplicate count, then pgbench in that schema. */
async function benchOnPostgres(pgUrl: string, label: string, run: GatewayRun) {
  await withSchema(pgUrl, async (url) => {
    const result = await benchGateway(label, { DATABASE_URL: url }, run);
    rows.push(...result.rows);
    if (result.checked) checks[label] = result.checked;
    if (!wanted('pgbench')) return;
    for (const clients of new Set([32, CONNECTIONS])) {
      const row = benchPgbench(label, url, result, clients);
      if (row) rows.push(row);
    }
  });
}

if (wanted('embedded')) {
  const run = { beforeRejections: bareBefore('embedded') };
  rows.push(
    ...(await withDataDir(
      async (dir) => (await benchGateway('embedded', { DATA_DIR: dir, DATABASE_URL: '' }, run)).rows,
    )),
  );
}
if (PG_URL && wanted('postgres')) {
  await benchOnPostgres(PG_URL, 'PostgreSQL', { beforeRejections: bareBefore('PostgreSQL') });
}
if (PG_URL && wanted('postgres-2')) {
  await benchOnPostgres(PG_URL, 'PostgreSQL, 2 processes', {
    args: ['serve', '--workers', '2'],
    only: (s) => /^(new lead|retry|mix)/.test(s.name),
  });
}
// Without a gateway's rejections to stand beside (BENCH_TARGETS=bare, say), bare Fastify alone.
if (wanted('bare') && !rows.some((r) => r.scenario.startsWith('bare Fastify'))) {
  rows.unshift(await benchBareFastify(null));
}

/** The lead report at 100,000 leads: `bench/report.ts` in a process of its own, on each database. */
interface ReportTime {
  target: string;
  leads: number;
  json_ms: number;
  csv_ms: number;
}
const reports: ReportTime[] = [];
function benchReport(target: string, databaseUrl: string | undefined): void {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_REQUESTS: process.env.BENCH_REPORT_REQUESTS ?? '3' };
  delete env.TEST_DATABASE_URL;
  if (databaseUrl) env.TEST_DATABASE_URL = databaseUrl;
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'bench/report.ts'], { env, encoding: 'utf8' });
  const last = out.stdout.trim().split('\n').at(-1) ?? '';
  if (out.status !== 0 || !last.startsWith('{')) {
    console.error(`report on ${target} failed:\n${out.stdout}${out.stderr}`);
    return;
  }
  reports.push({ target, ...(JSON.parse(last) as Omit<ReportTime, 'target'>) });
}
if (wanted('report')) {
  benchReport('embedded', undefined);
  if (PG_URL) benchReport('PostgreSQL', PG_URL);
}

const find = (target: string, scenario: string) =>
  rows.find((r) => r.target === target && r.scenario.startsWith(scenario));
const ceiling = (scenario: string) => rows.find((r) => r.target === 'reference' && r.scenario === scenario);
const ratios: Record<string, number> = {};
const ratio = (name: string, part: Row | undefined, whole: Row | undefined) => {
  if (part && whole && whole['req/s'] > 0)
    ratios[name] = Math.round((part['req/s'] / whole['req/s']) * 100) / 100;
};
for (const target of ['PostgreSQL', 'PostgreSQL, 2 processes']) {
  const pgbench = ceiling(pgbenchName(target));
  ratio(`${target} new lead / pgbench`, find(target, 'new lead'), pgbench);
  ratio(`${target} mix / pgbench`, find(target, 'mix'), pgbench);
}
for (const target of ['embedded', 'PostgreSQL']) {
  ratio(`${target} new lead beside a flood / alone`, find(target, 'flood:'), find(target, 'new lead'));
  ratio(
    `${target} repeat contact (merge) / new lead`,
    find(target, 'repeat contact'),
    find(target, 'new lead'),
  );
  ratio(
    `${target} new lead through an agency / to one agent`,
    find(target, 'agency:'),
    find(target, 'new lead'),
  );
  const bare = ceiling(bareName(target));
  ratio(`${target} invalid token / bare Fastify`, find(target, 'invalid token'), bare);
  ratio(`${target} revoked token / bare Fastify`, find(target, 'revoked token'), bare);
  ratio(`${target} 405 / bare Fastify`, find(target, 'GET (405)'), bare);
}

/**
 * Whether the bench's prospects could be texted when the run began, as the dispatcher decides it
 * (their zone and their state's calling hours): inside the hours each new lead's first text is sent
 * during the run (a row updated and a history entry more per lead); outside them it is only
 * scheduled. Runs at different hours of the day do different work, and this says which.
 */
function textsAtStart(at: Date): string {
  const prospect = lead('', 0);
  const state = String(prospect.state);
  const zone = leadZone(prospect, 'America/Chicago');
  const next = nextAllowedInstant(at, zone, contactRule(state));
  if (next.getTime() === at.getTime()) return `sent at once (inside ${state} calling hours)`;
  const local = next.toLocaleString('en-US', {
    timeZone: zone,
    hour: 'numeric',
    minute: '2-digit',
    weekday: 'short',
  });
  return `scheduled, not sent during the run (outside ${state} calling hours until ${local} ${zone})`;
}
const texts = textsAtStart(STARTED);

console.log(`\n${SECONDS} s per scenario, ${CONNECTIONS} connections, node ${process.version}`);
console.log(`New leads' first texts: ${texts}`);
console.table(rows);
console.table(ratios);
if (reports.length > 0) console.table(reports);
if (Object.keys(checks).length > 0) {
  console.log('Duplicates after every scenario (all must be 0):');
  console.table(checks);
}
/** The PostgreSQL server's version, for the machine the run is reported on. */
async function postgresVersion(url: string): Promise<string> {
  const db = await createDb({ databaseUrl: url });
  try {
    const { rows } = await db.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await db.close();
  }
}

const machine = describeMachine(PG_URL ? await postgresVersion(PG_URL) : null);
const run = {
  started: STARTED.toISOString(),
  finished: new Date().toISOString(),
  machine,
  texts,
  seconds: SECONDS,
  connections: CONNECTIONS,
  rows,
  ratios,
  checks,
  reports,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.json', `${JSON.stringify({ ...run, node: process.version }, null, 2)}\n`);
console.log('written: bench/results/latest.json');
// A narrowed run is a measurement for its author, not the figures a newcomer should read.
if (TARGETS.length === 0 && ONLY.length === 0 && process.env.BENCH_DOCS !== '0') {
  console.log(`written: ${writeSummaries(run).join(', ')} (this run's summary, between their bench markers)`);
}
