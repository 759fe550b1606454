/**
 * `npm run bench`: live deliveries as lead vendors send them, against a real gateway process on the
 * embedded database and (with DATABASE_URL, BENCH_DATABASE_URL or TEST_DATABASE_URL) on PostgreSQL,
 * beside two reference ceilings measured in the same run: a bare Fastify route that parses the same
 * body (`bench/bare-fastify.ts`) and pgbench running one delivery's SQL (`bench/delivery.pgbench.sql`).
 * Prints a table and writes bench/results/latest.json. No timing is asserted anywhere.
 *   npm run bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
 * Env: BENCH_SECONDS per scenario (default 10), BENCH_CONNECTIONS (default 50); for a partial run,
 * BENCH_TARGETS (`bare,embedded,postgres,pgbench`) and BENCH_SCENARIOS (names, or the start of names, comma-separated).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { hashToken } from '../src/sources/tokens.ts';
import {
  adminPost as admin,
  startLeadgate,
  stopLeadgate,
  withDataDir,
  withSchema,
} from './leadgate-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PG_URL = process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const GATEWAY = '/v1/inbound-lead-gateway';
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
  'p50 ms': number;
  'p90 ms': number | null;
  'p99 ms': number | null;
  errors: number;
  'peak RSS MB': number | null;
  /** CPU the server process used, and every `postgres` process on the machine, in % of one core. */
  'server CPU %'?: number | null;
  'postgres CPU %'?: number | null;
}

/** A realistic lead of about 1.4 KB; `n` makes the contact (phone, email) new. */
function lead(run: string, n: number): Record<string, unknown> {
  return {
    first_name: 'Bench',
    last_name: `Lead ${run}-${n}`,
    phone: `214${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`,
    email: `bench.${run}.${n}@example.com`,
    address: '1200 Main St',
    city: 'Dallas',
    state: 'TX',
    zipcode: '75201',
    date_of_birth: '05/01/1964',
    gender: 'F',
    lead_category: 'FE',
    coverage_type: 'Final expense',
    coverage_amount: '15000',
    monthly_budget: '60',
    smoker: 'no',
    sms_consent: 'yes',
    consent_cert_url: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
    ip_address: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    utm_source: 'facebook',
    utm_medium: 'paid',
    utm_campaign: 'fe-spring',
    utm_content: 'carousel-2',
    utm_term: 'burial insurance',
    leadgen_id: `120394857${n}`,
    ad_id: '23851234567890123',
    campaign_name: 'FE Texas Spring',
    beneficiary: 'Spouse',
    occupation: 'Retired teacher',
    tags: ['facebook', 'final-expense'],
    notes: 'Wants a quote for her husband too. Best time to call is after 5 pm; prefers text first.',
    custom_fields: { vendor_ref: `A-${n}`, page_url: 'https://quotes.example.com/final-expense?v=b' },
  };
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
}

interface Target {
  url: string;
  token: string;
  run: string;
  /** A well-formed token that names no source. */
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
  return [plain, appointment, repeat, replay, listen, mix, invalidToken, staleToken, wrongMethod];
}

async function drive(
  url: string,
  scenario: Scenario,
): Promise<{ result: autocannon.Result; errors: number }> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
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
  return { result, errors: wrong + result.errors + result.timeouts };
}

/** The process's peak resident memory since the last reset (Linux), in MB; null where unknown. */
function peakRssMb(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU seconds used so far by each of the processes `pids` (Linux /proc; clock ticks of 1/100 s). */
function cpuSeconds(pids: Array<number | undefined>): Map<number | undefined, number> {
  const used = new Map<number | undefined, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      used.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // gone, or not Linux
    }
  }
  return used;
}

function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Runs `fn`, and says how busy the server and PostgreSQL were meanwhile, in % of one core. A
 * PostgreSQL process that ended meanwhile counts for nothing: a little is missed, never doubled.
 */
async function withCpu<T>(serverPid: number | undefined, fn: () => Promise<T>) {
  const before = cpuSeconds([serverPid, ...postgresPids()]);
  const t0 = Date.now();
  const value = await fn();
  const seconds = (Date.now() - t0) / 1000;
  const after = cpuSeconds([serverPid, ...postgresPids()]);
  const used = (pid: number | undefined) => {
    const end = after.get(pid);
    return end === undefined ? 0 : end - (before.get(pid) ?? 0);
  };
  const pct = (s: number) => Math.round((s / seconds) * 100);
  let postgres = 0;
  for (const pid of after.keys()) if (pid !== serverPid) postgres += used(pid);
  return { value, server: pct(used(serverPid)), postgres: pct(postgres) };
}

function resetPeakRss(pid: number | undefined): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not Linux, or not allowed: the peak then runs from the start of the process.
  }
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

/** The gateway on one database, every scenario in turn; returns the rows and what pgbench needs. */
async function benchGateway(label: string, env: Record<string, string>) {
  const { child, match } = await startLeadgate(
    'serve',
    { LOG_LEVEL: 'warn', ...env },
    /listening on (http:\/\/\S+)/,
  );
  try {
    const url = match[1] ?? '';
    const agent = await admin<{ agent_id: string }>(url, '/agents', {
      name: 'Bench Agent',
      timezone: 'America/Chicago',
    });
    const source = await admin<{ source_id: string; token: string }>(
      url,
      `/agents/${agent.agent_id}/sources`,
      {
        name: 'bench',
      },
    );
    const run = randomBytes(3).toString('hex');
    const target: Target = {
      url,
      token: source.token,
      staleToken: randomUUID(),
      run,
      seeded: await seed(url, source.token, run),
    };
    const rows: Row[] = [];
    for (const scenario of scenarios(target).filter(chosen)) {
      resetPeakRss(child.pid);
      const { value, server, postgres } = await withCpu(child.pid, () => drive(url, scenario));
      rows.push({
        ...row(label, scenario.name, value.result, value.errors, peakRssMb(child.pid)),
        'server CPU %': server,
        'postgres CPU %': env.DATABASE_URL ? postgres : null,
      });
    }
    return { rows, agentId: agent.agent_id, sourceId: source.source_id, token: source.token };
  } finally {
    await stopLeadgate(child);
  }
}

async function benchBareFastify(): Promise<Row> {
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
      name: 'bare Fastify, same body (ceiling a)',
      expect: 200,
      next: () => ({ method: 'POST', path: GATEWAY, headers: { 'content-type': 'application/json' }, body }),
    };
    const { result, errors } = await drive(url, scenario);
    return row('reference', scenario.name, result, errors, peakRssMb(child.pid));
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

/** pgbench, 32 clients, prepared, the delivery script, in the schema the gateway just used. */
function benchPgbench(
  schemaUrl: string,
  ids: { agentId: string; sourceId: string; token: string },
): Row | null {
  const bin = pgbenchBinary();
  if (!bin) return null;
  const url = new URL(schemaUrl);
  const options = url.searchParams.get('options') ?? '';
  url.searchParams.delete('options');
  const out = spawnSync(
    bin,
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      '32',
      '-j',
      '2',
      '-T',
      String(SECONDS),
      '-f',
      'bench/delivery.pgbench.sql',
      '-D',
      `aid=${ids.agentId}`,
      '-D',
      `sid=${ids.sourceId}`,
      '-D',
      `tokenhash=${hashToken(ids.token)}`,
      url.toString(),
    ],
    { env: { ...process.env, PGOPTIONS: options }, encoding: 'utf8' },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(out.stdout)?.[1]);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(out.stdout)?.[1]);
  if (!Number.isFinite(tps)) {
    console.error(`pgbench failed:\n${out.stdout}\n${out.stderr}`);
    return null;
  }
  return {
    target: 'reference',
    scenario: 'pgbench, one delivery’s SQL, 32 clients (ceiling b)',
    'req/s': Math.round(tps),
    'p50 ms': latency,
    'p90 ms': null,
    'p99 ms': null,
    errors: Number(/number of failed transactions: (\d+)/.exec(out.stdout)?.[1] ?? 0),
    'peak RSS MB': null,
  };
}

const rows: Row[] = [];
if (wanted('bare')) rows.push(await benchBareFastify());
if (wanted('embedded')) {
  rows.push(
    ...(await withDataDir(
      async (dir) => (await benchGateway('embedded', { DATA_DIR: dir, DATABASE_URL: '' })).rows,
    )),
  );
}
if (PG_URL && wanted('postgres')) {
  await withSchema(PG_URL, async (url) => {
    const pg = await benchGateway('PostgreSQL', { DATABASE_URL: url });
    rows.push(...pg.rows);
    const ceiling = wanted('pgbench') ? benchPgbench(url, pg) : null;
    if (ceiling) rows.push(ceiling);
  });
}

const find = (target: string, scenario: string) =>
  rows.find((r) => r.target === target && r.scenario.startsWith(scenario));
const bare = find('reference', 'bare Fastify');
const pgbench = find('reference', 'pgbench');
const ratios: Record<string, number> = {};
const ratio = (name: string, part: Row | undefined, whole: Row | undefined) => {
  if (part && whole && whole['req/s'] > 0)
    ratios[name] = Math.round((part['req/s'] / whole['req/s']) * 100) / 100;
};
ratio('PostgreSQL mix / pgbench', find('PostgreSQL', 'mix'), pgbench);
ratio('PostgreSQL new lead / pgbench', find('PostgreSQL', 'new lead'), pgbench);
for (const target of ['embedded', 'PostgreSQL']) {
  ratio(`${target} invalid token / bare Fastify`, find(target, 'invalid token'), bare);
  ratio(`${target} revoked token / bare Fastify`, find(target, 'revoked token'), bare);
  ratio(`${target} 405 / bare Fastify`, find(target, 'GET (405)'), bare);
}

console.log(
  `\n${SECONDS} s per scenario, ${CONNECTIONS} connections, one gateway process, node ${process.version}`,
);
console.table(rows);
console.table(ratios);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/latest.json',
  `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, node: process.version, rows, ratios }, null, 2)}\n`,
);
console.log('written: bench/results/latest.json');
