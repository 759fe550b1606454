import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.ts';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';

const CLI_SMS_SECRET = 'cli-sms-secret';
let t: TestApp;
let url: string;
const tempDirs: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ sms: { provider: 'recorder', inboundSecret: CLI_SMS_SECRET } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs `leadgate <args>` in-process against the test server, capturing stdout and stderr. */
async function leadgate(
  args: string[],
  env: NodeJS.ProcessEnv = { LEADGATE_URL: url, ADMIN_API_KEY: ADMIN_KEY },
  stdin?: string,
) {
  let out = '';
  let err = '';
  const code = await runCli(['node', 'leadgate', ...args], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    env,
    ...(stdin === undefined ? {} : { stdin: async () => stdin }),
  });
  return { code, out, err };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leadgate-cli-'));
  tempDirs.push(dir);
  return dir;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

async function insertLead(
  s: { agent_id: string; source_id: string },
  name: string,
  phone: string,
): Promise<string> {
  const leadId = randomUUID();
  await t.db.query(
    `INSERT INTO leads (agent_id, lead_id, source_id, status, name, phone, fields)
     VALUES ($1, $2, $3, 'Scheduled', $4, $5, '{"state":"TX"}')`,
    [s.agent_id, leadId, s.source_id, name, phone],
  );
  return leadId;
}

describe('agents and sources', () => {
  it('when `agents create --json` runs, then it prints the created agent as JSON', async () => {
    const res = await leadgate([
      'agents',
      'create',
      '--name',
      'Cli Agent',
      '--timezone',
      'America/Phoenix',
      '--json',
    ]);

    expect(res).toMatchObject({ code: 0, err: '' });
    const agent = JSON.parse(res.out) as Record<string, unknown>;
    expect(agent).toMatchObject({ name: 'Cli Agent', timezone: 'America/Phoenix' });
    expect(String(agent.agent_id)).toHaveLength(36);
  });

  it('when `agents create` runs without --json, then it prints key: value lines', async () => {
    const res = await leadgate(['agents', 'create', '--name', 'Readable Agent']);

    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^agent_id:\s+[0-9a-f-]{36}$/m);
    expect(res.out).toMatch(/^name:\s+Readable Agent$/m);
    expect(res.out).toMatch(/^timezone:\s+America\/New_York$/m);
  });

  it('when a source is created, regenerated, disabled and enabled, then each step prints its result', async () => {
    const agent = JSON.parse((await leadgate(['agents', 'create', '--name', 'Src Agent', '--json'])).out) as {
      agent_id: string;
    };

    const created = await leadgate(['sources', 'create', '--agent', agent.agent_id, '--name', 'Vendor']);
    expect(created.code).toBe(0);
    const token = /^token:\s+(\S{36})$/m.exec(created.out)?.[1];
    const sourceId = /^source_id:\s+(\S{36})$/m.exec(created.out)?.[1] ?? '';
    expect(token).toBeDefined();
    expect(created.out).toContain(`/inbound-lead-gateway/v/${String(token)}`);
    expect(created.out).toContain('not shown again');

    const regenerated = await leadgate(['sources', 'regenerate', sourceId, '--json']);
    expect(regenerated.code).toBe(0);
    const fresh = JSON.parse(regenerated.out) as { token: string; source_id: string };
    expect(fresh.source_id).toBe(sourceId);
    expect(fresh.token).toHaveLength(36);
    expect(fresh.token).not.toBe(token);

    const disabled = await leadgate(['sources', 'disable', sourceId]);
    expect(disabled.code).toBe(0);
    expect(disabled.out).toContain(`Source ${sourceId} is disabled.`);
    expect(disabled.out).toMatch(/^active:\s+false$/m);
    const enabled = await leadgate(['sources', 'enable', sourceId, '--json']);
    expect(JSON.parse(enabled.out)).toMatchObject({ source_id: sourceId, active: true });

    const keyed = await leadgate(['sources', 'signing-key', sourceId, 'whsec_cli_key', '--json']);
    expect(JSON.parse(keyed.out)).toMatchObject({ source_id: sourceId, has_signing_key: true });
    expect(keyed.out).not.toContain('whsec_cli_key');
    const noKey = await leadgate(['sources', 'signing-key', sourceId]);
    expect(noKey.code).toBe(1);
    const removed = await leadgate(['sources', 'signing-key', sourceId, '--remove']);
    expect(removed.out).toContain('accepts unsigned events');
    expect(removed.out).toMatch(/^has_signing_key:\s+false$/m);

    const listed = await leadgate(['sources', 'list', '--agent', agent.agent_id]);
    expect(listed.out).toContain(sourceId);
    expect(listed.out).not.toContain(fresh.token);
  });
});

describe('leads, agenda and samples', () => {
  let s: { agent_id: string; source_id: string };
  let leadId: string;

  beforeAll(async () => {
    s = await seedSource(t.db, 'Reader Agent');
    leadId = await insertLead(s, 'Grace Hopper', '+15551112222');
    await insertLead(s, 'Alan Turing', '+15553334444');
    await t.db.query(
      `INSERT INTO appointments (agent_id, appointment_id, lead_id, scheduled_at, appointment_timezone, join_url)
       VALUES ($1, $2, $3, '2027-01-15T19:30:00Z', 'America/Chicago', 'https://meet.example/grace')`,
      [s.agent_id, randomUUID(), leadId],
    );
    await t.db.query(
      `INSERT INTO lead_history (agent_id, history_id, lead_id, source_id, event) VALUES ($1, $2, $3, $4, 'created')`,
      [s.agent_id, randomUUID(), leadId, s.source_id],
    );
    await t.db.query(
      `INSERT INTO listen_samples (agent_id, sample_id, source_id, body, mapped, warnings)
       VALUES ($1, $2, $3, '{"Full Name":"Sample Person"}', '{"name":"Sample Person"}',
               '[{"field":"phone","code":"INVALID_PHONE","message":"too short"}]')`,
      [s.agent_id, randomUUID(), s.source_id],
    );
  });

  it('when `leads list` runs, then a table of the agent’s leads is printed', async () => {
    const res = await leadgate(['leads', 'list', '--agent', s.agent_id]);

    expect(res.code).toBe(0);
    expect(res.out.split('\n')[0]).toMatch(/^LEAD_ID\s+CREATED_AT\s+STATUS\s+NAME\s+PHONE\s+EMAIL$/);
    expect(res.out).toContain('Grace Hopper');
    expect(res.out).toContain('Alan Turing');
  });

  it('when `leads list --q --json` runs, then the filtered API answer is printed', async () => {
    const res = await leadgate([
      'leads',
      'list',
      '--agent',
      s.agent_id,
      '--q',
      'grace',
      '--status',
      'Scheduled',
      '--json',
    ]);

    const data = JSON.parse(res.out) as { leads: { lead_id: string }[]; next_cursor: string | null };
    expect(data.leads.map((l) => l.lead_id)).toEqual([leadId]);
    expect(data.next_cursor).toBeNull();
  });

  it('when `leads list --limit 1` runs, then it says how to get the next page', async () => {
    const res = await leadgate(['leads', 'list', '--agent', s.agent_id, '--limit', '1']);

    expect(res.out).toMatch(/More: leadgate leads list --agent \S+ --cursor \S+/);
  });

  it('when `leads show` runs, then fields, appointments and history are printed', async () => {
    const res = await leadgate(['leads', 'show', leadId]);

    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^name:\s+Grace Hopper$/m);
    expect(res.out).toMatch(/^state:\s+TX$/m);
    expect(res.out).toContain('2027-01-15 13:30 CST (America/Chicago)');
    expect(res.out).toContain('created');
    const json = await leadgate(['leads', 'show', leadId, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ lead_id: leadId, appointments: [{ status: 'booked' }] });
  });

  it('when `agenda` runs for a range, then the appointments are listed in the contact’s local time', async () => {
    const res = await leadgate([
      'agenda',
      '--agent',
      s.agent_id,
      '--from',
      '2027-01-01T00:00:00Z',
      '--to',
      '2027-02-01T00:00:00Z',
    ]);

    expect(res.code).toBe(0);
    expect(res.out).toContain('Grace Hopper');
    expect(res.out).toContain('2027-01-15 13:30 CST');
    expect(res.out).toContain('https://meet.example/grace');
  });

  it('when `samples --json` and `samples` run, then the Listen samples are printed', async () => {
    const json = await leadgate(['samples', '--source', s.source_id, '--json']);
    const readable = await leadgate(['samples', '--source', s.source_id]);

    expect(JSON.parse(json.out)).toMatchObject({ samples: [{ mapped: { name: 'Sample Person' } }] });
    expect(readable.out).toContain('Sample Person');
    expect(readable.out).toContain('phone: INVALID_PHONE');
  });

  it('when `events` runs, then the source’s scheduler events are printed with what was done', async () => {
    await t.db.query(
      `INSERT INTO booking_events (agent_id, event_id, source_id, event, outcome, payload)
       VALUES ($1, $2, $3, 'routing_form_submission.created', 'ignored', '{}')`,
      [s.agent_id, randomUUID(), s.source_id],
    );
    const json = await leadgate(['events', '--source', s.source_id, '--json']);
    const readable = await leadgate(['events', '--source', s.source_id]);

    expect(JSON.parse(json.out)).toMatchObject({
      events: [{ event: 'routing_form_submission.created', outcome: 'ignored' }],
    });
    expect(readable.out).toContain('routing_form_submission.created');
    expect(readable.out).toContain('ignored');
  });
});

describe('mapping rules and refused samples', () => {
  it('when `sources map` runs with and without options, then it shows and changes the source’s rules', async () => {
    const s = await seedSource(t.db, 'CLI Rules');
    const map = (...args: string[]) => leadgate(['sources', 'map', s.source_id, ...args]);

    expect((await map()).out).toContain(`No mapping rules for source ${s.source_id}`);
    const set = await map('--set', '1.3=first_name', '--set', '1.6=last_name', '--ignore', 'debug', '--json');
    expect(JSON.parse(set.out)).toEqual({
      source_id: s.source_id,
      rules: { '1.3': 'first_name', '1.6': 'last_name', debug: null },
    });
    const shown = await map();
    expect(shown.out).toMatch(/^KEY\s+FIELD$/m);
    expect(shown.out).toMatch(/^1\.3\s+first_name$/m);
    expect(shown.out).toMatch(/^debug\s+\(ignored\)$/m);
    const removed = await map('--remove', 'debug', '--set', 'q_coverage=coverage_amount', '--json');
    expect(JSON.parse(removed.out).rules).toEqual({
      '1.3': 'first_name',
      '1.6': 'last_name',
      q_coverage: 'coverage_amount',
    });
    expect(JSON.parse((await map('--clear', '--json')).out).rules).toEqual({});
  });

  it('when `sources map --file` runs, then the file’s rules replace the source’s, as printed by --json or bare', async () => {
    const s = await seedSource(t.db, 'CLI Rules File');
    const dir = tempDir();
    const wrapped = join(dir, 'wrapped.json');
    const bare = join(dir, 'bare.json');
    writeFileSync(wrapped, JSON.stringify({ source_id: 'ignored', rules: { fname: 'first_name' } }));
    writeFileSync(bare, JSON.stringify({ q1: 'notes' }));

    const fromWrapped = await leadgate(['sources', 'map', s.source_id, '--file', wrapped, '--json']);
    const fromBare = await leadgate([
      'sources',
      'map',
      s.source_id,
      '--file',
      bare,
      '--ignore',
      'x',
      '--json',
    ]);

    expect(JSON.parse(fromWrapped.out).rules).toEqual({ fname: 'first_name' });
    expect(JSON.parse(fromBare.out).rules).toEqual({ q1: 'notes', x: null });
  });

  it('when `sources map` gets conflicting or bad options, then it says so and exits 1', async () => {
    const s = await seedSource(t.db, 'CLI Rules Errors');
    const map = (...args: string[]) => leadgate(['sources', 'map', s.source_id, ...args]);

    expect((await map('--set', 'a=notes', '--ignore', 'a')).err).toContain('the key "a" is given twice');
    expect((await map('--set', 'a')).err).toContain('--set takes KEY=FIELD');
    expect((await map('--file', 'x.json', '--clear')).err).toContain('give --file or --clear, not both');
    expect((await map('--file', join(tempDir(), 'missing.json'))).err).toContain('cannot read rules from');
    const unknown = await map('--set', 'a=favourite_colour');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^VALIDATION_ERROR: Invalid request \(Unknown field "favourite_colour"/);
  });

  it('when `samples --refused` and `samples --remap` run, then refused deliveries are listed and one is mapped again', async () => {
    const s = await seedSource(t.db, 'CLI Refused');
    await deliver(t.app, s.token, { '1.3': 'Jane', '1.6': 'Doe' });
    await deliver(t.app, s.token, undefined, { raw: 'oops' });
    await deliver(t.app, s.token, { name: 'Listen Lee', listen: true });

    const refused = await leadgate(['samples', '--source', s.source_id, '--refused']);
    expect(refused.out).toContain('refused: INVALID_JSON');
    expect(refused.out).toContain('raw_body:      "oops"');
    expect(refused.out).toContain('refused: MISSING_NAME');
    expect(refused.out).not.toContain('Listen Lee');
    expect((await leadgate(['samples', '--source', s.source_id, '--listen'])).out).toContain('listen: ok');

    const listed = JSON.parse(
      (await leadgate(['samples', '--source', s.source_id, '--refused', '--json'])).out,
    ) as {
      samples: { sample_id: string; error_code: string }[];
    };
    const nameless = listed.samples.find((x) => x.error_code === 'MISSING_NAME')?.sample_id ?? '';
    await leadgate(['sources', 'map', s.source_id, '--set', '1.3=first_name', '--set', '1.6=last_name']);
    const remapped = await leadgate(['samples', '--source', s.source_id, '--remap', nameless]);
    expect(remapped.out).toContain(`Sample ${nameless} with the current rules (nothing stored): ok`);
    expect(remapped.out).toContain('"name":"Jane Doe"');
    const json = await leadgate(['samples', '--source', s.source_id, '--remap', nameless, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ error_code: null, mapped: { first_name: 'Jane' } });
  });
});

describe('automations', () => {
  it('when a destination is added, listed and removed, then each step prints its result; the secret only once', async () => {
    const s = await seedSource(t.db, 'CLI Hooks');
    const added = await leadgate([
      'destinations',
      'add',
      '--source',
      s.source_id,
      '--url',
      'https://hooks.example.com/x',
      '--events',
      'lead.created,appointment.booked',
      '--json',
    ]);
    expect(added.code).toBe(0);
    const destination = JSON.parse(added.out) as { destination_id: string; secret: string; events: string[] };
    expect(destination.secret).toMatch(/^whsec_/);
    expect(destination.events).toEqual(['lead.created', 'appointment.booked']);
    const listed = await leadgate(['destinations', 'list', '--source', s.source_id]);
    expect(listed.out).toMatch(/^DESTINATION_ID\s+KIND\s+ACTIVE\s+EVENTS\s+URL$/m);
    expect(listed.out).toContain('https://hooks.example.com/x');
    expect(listed.out).not.toContain(destination.secret);
    expect((await leadgate(['destinations', 'remove', destination.destination_id])).out).toContain('removed');
    expect((await leadgate(['destinations', 'list', '--source', s.source_id])).out).toContain(
      'No destinations.',
    );
  });

  it('when `deliveries list`, `dial-queue` and `sms-template` run, then they print the agent’s queues and template', async () => {
    const s = await seedSource(t.db, 'CLI Queues');
    expect((await leadgate(['deliveries', 'list', '--agent', s.agent_id])).out).toContain('No deliveries.');
    expect((await leadgate(['deliveries', 'list', '--agent', s.agent_id, '--status', 'nope'])).err).toContain(
      'VALIDATION_ERROR',
    );
    expect((await leadgate(['dial-queue', '--agent', s.agent_id])).out).toContain('No calls waiting.');
    const set = await leadgate([
      'sms-template',
      '--agent',
      s.agent_id,
      'Hi {first_name}, {agent_name} here.',
      '--json',
    ]);
    expect(JSON.parse(set.out).sms_template).toBe('Hi {first_name}, {agent_name} here.');
    const neither = await leadgate(['sms-template', '--agent', s.agent_id]);
    expect(neither.err).toContain('give the template, or --reset');
    expect(
      (await t.db.query('SELECT sms_template FROM agents WHERE agent_id = $1', [s.agent_id])).rows,
    ).toEqual([{ sms_template: 'Hi {first_name}, {agent_name} here.' }]);
    const reset = await leadgate(['sms-template', '--agent', s.agent_id, '--reset', '--json']);
    expect(JSON.parse(reset.out).sms_template).toBeNull();
  });
});

describe('dial-queue', () => {
  it('when call tasks were made in one dispatcher round, then `dial-queue` lists them in the order their leads were delivered', async () => {
    const s = await seedSource(t.db, 'CLI Dialer');
    const names = Array.from({ length: 6 }, (_, i) => `Cli Caller ${i + 1}`);
    for (const [i, name] of names.entries()) {
      await deliver(t.app, s.token, { name, phone: `41555501${10 + i}` });
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await testDispatcher(t.db).runOnce();
    const listed = JSON.parse((await leadgate(['dial-queue', '--agent', s.agent_id, '--json'])).out) as {
      tasks: Array<{ name: string }>;
    };
    expect(listed.tasks.map((task) => task.name)).toEqual(names);
  });
});

describe('errors', () => {
  it('when a lead does not exist, then the error code is printed to stderr and the exit code is 1', async () => {
    const res = await leadgate(['leads', 'show', randomUUID()]);

    expect(res.code).toBe(1);
    expect(res.out).toBe('');
    expect(res.err).toBe('LEAD_NOT_FOUND: Lead not found\n');
  });

  it('when the API refuses a value, then its details are printed too', async () => {
    const res = await leadgate(['agents', 'create', '--name', 'X', '--timezone', 'Nowhere/Land']);

    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^VALIDATION_ERROR: Invalid request \(timezone must be .+\)\n$/);
  });

  it('when the admin key is wrong, then UNAUTHORIZED is reported', async () => {
    const res = await leadgate(['agents', 'show', randomUUID()], {
      LEADGATE_URL: url,
      ADMIN_API_KEY: 'wrong',
    });

    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^UNAUTHORIZED: Unauthorized/);
  });

  it('when the server is not running, then it says so and exits 1', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;

    const res = await leadgate(['leads', 'show', randomUUID()], {
      LEADGATE_URL: dead,
      ADMIN_API_KEY: ADMIN_KEY,
    });

    expect(res.code).toBe(1);
    expect(res.err).toContain(`cannot reach leadgate at ${dead} — is \`npm start\` running?`);
  });

  it('when no key is set and DATA_DIR has none, then it explains where the key comes from', async () => {
    const dir = tempDir();

    const res = await leadgate(['leads', 'show', randomUUID()], { LEADGATE_URL: url, DATA_DIR: dir });

    expect(res.code).toBe(1);
    expect(res.err).toContain('no admin key: set ADMIN_API_KEY');
    expect(res.err).toContain(join(dir, 'admin.key'));
  });

  it('when no key is set but DATA_DIR/admin.key exists, then that key is used', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'admin.key'), `${ADMIN_KEY}\n`);

    const res = await leadgate(['agents', 'create', '--name', 'Key File Agent', '--json'], {
      LEADGATE_URL: url,
      DATA_DIR: dir,
    });

    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toMatchObject({ name: 'Key File Agent' });
  });

  it('when a required option is missing, then commander reports it and the exit code is 1', async () => {
    const res = await leadgate(['leads', 'list']);

    expect(res.code).toBe(1);
    expect(res.err).toContain("required option '--agent <agent_id>' not specified");
  });
});

describe('migrate', () => {
  it('when `migrate` runs on a fresh embedded database, then it applies the migrations once', async () => {
    const dir = tempDir();
    const env = { DATA_DIR: dir };

    const first = await leadgate(['migrate'], env);
    const second = await leadgate(['migrate', '--json'], env);

    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toMatch(/^Applied: 0001-init/);
    expect(JSON.parse(second.out)).toEqual({ applied: [] });
  });
});

describe('leadgate agents: console logins and agent keys', () => {
  it('When an agent is created with an email and given a password on standard input, then the login is stored hashed; a short one is refused', async () => {
    const created = await leadgate([
      'agents',
      'create',
      '--name',
      'Dana',
      '--email',
      'dana@example.com',
      '--json',
    ]);
    expect(created.code, created.err).toBe(0);
    const agent = JSON.parse(created.out) as { agent_id: string; email: string };
    expect(agent.email).toBe('dana@example.com');
    const short = await leadgate(['agents', 'password', agent.agent_id], undefined, 'too short\n');
    expect(short.code).toBe(1);
    expect(short.err).toContain('VALIDATION_ERROR');
    const set = await leadgate(
      ['agents', 'password', agent.agent_id],
      undefined,
      'a long enough passphrase\n',
    );
    expect(set.code, set.err).toBe(0);
    const { rows } = await t.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM agents WHERE agent_id = $1',
      [agent.agent_id],
    );
    const { verify } = await import('@node-rs/argon2');
    expect(await verify(rows[0]?.password_hash ?? '', 'a long enough passphrase')).toBe(true);
  });

  it('When a key is created and revoked from the CLI, then it works until revoked and is shown only once', async () => {
    const s = await seedSource(t.db, 'Erin');
    const created = await leadgate(['agents', 'keys', 'create', s.agent_id, '--json']);
    expect(created.code, created.err).toBe(0);
    const key = JSON.parse(created.out) as { key_id: string; key: string };
    const asAgent = { LEADGATE_URL: url, ADMIN_API_KEY: key.key };
    expect((await leadgate(['agents', 'show', s.agent_id], asAgent)).code).toBe(0);
    expect((await leadgate(['agents', 'keys', 'revoke', s.agent_id, key.key_id])).code).toBe(0);
    const refused = await leadgate(['agents', 'show', s.agent_id], asAgent);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('UNAUTHORIZED');
  });
});

describe('leadgate agents list', () => {
  it('When the operator lists agents, then every agent shows with its id, across pages', async () => {
    const made = await Promise.all(['Gail', 'Hank'].map((name) => seedSource(t.db, `List ${name}`)));
    const res = await leadgate(['agents', 'list']);
    expect(res.code, res.err).toBe(0);
    expect(res.out.split('\n')[0]).toMatch(/^AGENT_ID\s+NAME\s+EMAIL\s+TIMEZONE$/);
    for (const s of made) expect(res.out).toMatch(new RegExp(`${s.agent_id}\\s+List `));
    const json = JSON.parse((await leadgate(['agents', 'list', '--json'])).out) as {
      agents: Array<{ agent_id: string }>;
    };
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agents');
    expect(json.agents).toHaveLength(rows[0]?.n ?? -1);
  });

  it('When an agent key lists agents, then only its own agent shows', async () => {
    const s = await seedSource(t.db, 'List Ivy');
    const key = JSON.parse((await leadgate(['agents', 'keys', 'create', s.agent_id, '--json'])).out) as {
      key: string;
    };
    const res = await leadgate(['agents', 'list', '--json'], { LEADGATE_URL: url, ADMIN_API_KEY: key.key });
    expect(res.code, res.err).toBe(0);
    expect(JSON.parse(res.out)).toEqual({ agents: [expect.objectContaining({ agent_id: s.agent_id })] });
  });
});

describe('leadgate sources rate-limit', () => {
  it('When a source gets its own limit and then the default again, then the source shows it, and a bad number is refused', async () => {
    const s = await seedSource(t.db, 'Rate Ruth');
    const set = await leadgate(['sources', 'rate-limit', s.source_id, '--rps', '200', '--json']);
    expect(set.code, set.err).toBe(0);
    expect(JSON.parse(set.out)).toMatchObject({ rate_limit_rps: 200, rate_limit_burst: 400 });
    const back = await leadgate(['sources', 'rate-limit', s.source_id, '--default', '--json']);
    expect(JSON.parse(back.out)).toMatchObject({ rate_limit_rps: null, rate_limit_burst: null });
    const bad = await leadgate(['sources', 'rate-limit', s.source_id, '--rps', 'lots']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--rps must be a whole number');
  });
});

describe('leadgate sources terms', () => {
  it('When terms are set and one rule removed, then the source shows them, and a bad value is refused before any request', async () => {
    const s = await seedSource(t.db, 'Terms Tina');
    const set = await leadgate([
      ...['sources', 'terms', s.source_id, '--price', '12.50', '--duplicate-days', '14'],
      ...['--states', 'tx,ok', '--min-age', '21', '--require-consent', '--daily-cap', '40', '--json'],
    ]);
    expect(set.code, set.err).toBe(0);
    expect(JSON.parse(set.out)).toMatchObject({
      price_cents: 1250,
      duplicate_days: 14,
      accept: { states: ['TX', 'OK'], min_age: 21, require_consent: true },
      caps: { daily: 40 },
    });
    const removed = await leadgate(['sources', 'terms', s.source_id, '--remove', 'min_age,daily']);
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toContain('$12.50');
    expect(removed.out).toContain('{"states":["TX","OK"],"require_consent":true}');
    expect(removed.out).toMatch(/caps: +\{\}/);
    const bad = await leadgate(['sources', 'terms', s.source_id, '--price', 'cheap']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--price takes dollars such as 25 or 12.50');
    // The admin API's maximum, read from the same limit: refused before any request.
    const dear = await leadgate(['sources', 'terms', s.source_id, '--price', '1,000,000.01']);
    expect(dear.code).toBe(1);
    expect(dear.err).toContain('--price is at most $1,000,000.00');
  });
});

describe('sources meta', () => {
  it('When Meta settings come on standard input, then they are set and never printed, and --remove takes one away', async () => {
    const s = await seedSource(t.db, 'Cli Meta');
    const stdin =
      'page_access_token=EAAG-cli-page-token\napp_secret=cli-app-secret-123\n\nverify_token=cli-verify\n';
    const set = await leadgate(
      ['sources', 'meta', s.source_id, '--stdin', '--google-key', 'cli-google-key'],
      undefined,
      stdin,
    );
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('Meta page access token: set');
    expect(set.out).toContain('Google key:             set');
    const removed = await leadgate([
      'sources',
      'meta',
      s.source_id,
      '--remove',
      'app_secret',
      '--listen',
      '--json',
    ]);
    expect(removed.code, removed.err).toBe(0);
    expect(JSON.parse(removed.out)).toMatchObject({
      meta: { page_access_token_set: true, app_secret_set: false, verify_token_set: true, listen: true },
      has_google_key: true,
    });
    for (const secret of ['EAAG-cli-page-token', 'cli-app-secret-123', 'cli-verify', 'cli-google-key'])
      expect(set.out + set.err + removed.out, secret).not.toContain(secret);
  });

  it('When standard input has a line that is no setting, then nothing is changed and the line is not echoed', async () => {
    const s = await seedSource(t.db, 'Cli Meta Bad');
    const bad = await leadgate(
      ['sources', 'meta', s.source_id, '--stdin'],
      undefined,
      'EAAG-pasted-bare-token\n',
    );
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/name=value/);
    expect(bad.err).not.toContain('EAAG-pasted-bare-token');
    const none = await leadgate(['sources', 'meta', s.source_id]);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/give a setting/);
  });
});

describe('leadgate conversations and messages', () => {
  it('When a prospect texts, then `conversations` lists the thread unread, `messages` shows it, answers it and marks it read', async () => {
    const src = await seedSource(t.db, 'Cli Conversing', 'America/Chicago');
    const lead = (
      await deliver(t.app, src.token, { name: 'Cli Carla', phone: '3125550901', state: 'IL' })
    ).json().lead_id as string;
    expect((await leadgate(['conversations', '--agent', src.agent_id])).out).toBe(
      'No conversations: no prospect has written yet.\n',
    );
    await t.app.inject({
      method: 'POST',
      url: '/v1/sms/inbound',
      headers: { 'content-type': 'application/json', 'x-sms-secret': CLI_SMS_SECRET },
      payload: JSON.stringify({ from: '3125550901', body: 'Not before noon please' }),
    });
    const inbox = await leadgate(['conversations', '--agent', src.agent_id]);
    expect(inbox.code, inbox.err).toBe(0);
    expect(inbox.out).toMatch(
      new RegExp(`^${lead}\\s+1\\s+\\S+\\s+Cli Carla\\s+3125550901\\s+Not before noon please$`, 'm'),
    );
    const thread = await leadgate(['messages', lead]);
    expect(thread.out).toMatch(/^\S+\s+prospect\s+asks when to contact\s+Not before noon please$/m);
    const sent = await leadgate(['messages', lead, '--send', 'Noon it is.']);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toMatch(/^Text \S+ scheduled: it goes out in a moment\.$/m);
    expect(
      JSON.parse((await leadgate(['conversations', '--agent', src.agent_id, '--json'])).out),
    ).toMatchObject({
      unread: 0,
    });
    const refused = await leadgate(['messages', lead, '--send', '']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('VALIDATION_ERROR');
  });
});

describe('leadgate agencies', () => {
  /** `leadgate ARGS --json`, its answer parsed. */
  const answer = async (...args: string[]) =>
    JSON.parse((await leadgate([...args, '--json'])).out) as Record<string, unknown>;
  const agent = async (name: string) => String((await answer('agents', 'create', '--name', name)).agent_id);
  const newAgency = async (name: string, fallback: string) =>
    String((await answer('agencies', 'create', name, '--fallback', fallback)).agency_id);
  const agentOfLead = async (leadId: string) =>
    (await t.db.query<{ agent_id: string }>('SELECT agent_id FROM leads WHERE lead_id = $1', [leadId]))
      .rows[0]?.agent_id;

  it('When an agency is made, given producers and a source from the CLI, then `show` tells each producer’s states, cap, pause and share of today’s leads', async () => {
    const [boss, ann, ben] = [
      await agent('Boss Agency'),
      await agent('Ann Producer'),
      await agent('Ben Producer'),
    ];
    const created = await leadgate([
      'agencies',
      'create',
      'Lone Star Agency',
      '--fallback',
      boss,
      '--timezone',
      'America/Chicago',
    ]);
    expect(created.code, created.err).toBe(0);
    const agencyId = /^agency_id:\s+(\S{36})$/m.exec(created.out)?.[1] ?? '';
    expect(created.out).toMatch(/^timezone:\s+America\/Chicago$/m);

    const added = await leadgate(['agencies', 'member', agencyId, ann, '--states', 'tx,OK', '--weight', '2']);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toContain('Added producer Ann Producer.');
    expect(added.out).toMatch(/^weight:\s+2$/m);
    await leadgate(['agencies', 'member', agencyId, ben, '--states', 'TX', '--cap', '20']);
    // What is not given stays as it was: pausing keeps Ben's states and cap; --no-cap drops the cap only.
    const paused = await answer('agencies', 'member', agencyId, ben, '--paused');
    expect(paused).toMatchObject({ licensed_states: ['TX'], daily_cap: 20, active: false });
    const back = await answer('agencies', 'member', agencyId, ben, '--active', '--no-cap');
    expect(back).toMatchObject({
      licensed_states: ['TX'],
      daily_cap: null,
      active: true,
      weight: 1,
    });

    const source = await leadgate(['agencies', 'source', agencyId, 'Vendor A']);
    expect(source.code, source.err).toBe(0);
    expect(source.out).toMatch(new RegExp(`^agency_id:\\s+${agencyId}$`, 'm'));
    expect(source.out).toContain('not shown again');
    const token = /^token:\s+(\S{36})$/m.exec(source.out)?.[1] ?? '';
    for (const i of [1, 2, 3])
      expect(
        (await deliver(t.app, token, { name: `Tex ${i}`, email: `tex${i}@cli.example.com`, state: 'TX' }))
          .statusCode,
      ).toBe(200);

    const shown = await leadgate(['agencies', 'show', agencyId]);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain('Producers (leads today in America/Chicago: 3):');
    expect(shown.out).toMatch(/^AGENT_ID\s+STATES\s+WEIGHT\s+DAILY_CAP\s+ACTIVE\s+TODAY\s+SHARE\s+NAME$/m);
    expect(shown.out).toMatch(
      new RegExp(`^${ann}\\s+OK,TX\\s+2\\s+-\\s+yes\\s+2\\s+67%\\s+Ann Producer$`, 'm'),
    );
    expect(shown.out).toMatch(new RegExp(`^${ben}\\s+TX\\s+1\\s+-\\s+yes\\s+1\\s+33%\\s+Ben Producer$`, 'm'));
    expect((await answer('agencies', 'show', agencyId)).members).toHaveLength(2);

    const listed = await leadgate(['agencies', 'list', '--agent', boss]);
    expect(listed.out).toMatch(
      new RegExp(`^${agencyId}\\s+America/Chicago\\s+-\\s+\\S+\\s+Lone Star Agency$`, 'm'),
    );
    expect((await leadgate(['agencies', 'list', '--agent', ann])).out).toContain('No agencies');

    const timed = await answer(
      'agencies',
      'update',
      agencyId,
      '--claim-minutes',
      '15',
      '--name',
      'Lone Star',
    );
    expect(timed).toMatchObject({ claim_minutes: 15, name: 'Lone Star' });
    const untimed = await leadgate(['agencies', 'update', agencyId, '--no-claim']);
    expect(untimed.out).toMatch(/^claim_minutes:\s+-$/m);

    const removed = await leadgate(['agencies', 'remove-member', agencyId, ben]);
    expect(removed.out).toContain(`Producer ${ben} removed`);
    expect((await leadgate(['agencies', 'show', agencyId])).out).not.toContain('Ben Producer');
  });

  it('When a lead waits in the fallback queue, then `queue` names who may take it and `assign` gives it to them', async () => {
    const [boss, cal] = [await agent('Boss Queue'), await agent('Cal Producer')];
    const agencyId = await newAgency('Queue Agency', boss);
    await leadgate(['agencies', 'member', agencyId, cal, '--states', 'CA', '--paused']);
    const token = String((await answer('agencies', 'source', agencyId, 'Vendor Q')).token);
    const leadId = (await deliver(t.app, token, { name: 'West Coast', state: 'CA' })).json<{
      lead_id: string;
    }>().lead_id;
    expect(await agentOfLead(leadId)).toBe(boss);

    const queue = await leadgate(['agencies', 'queue', agencyId]);
    expect(queue.code, queue.err).toBe(0);
    expect(queue.out).toMatch(
      new RegExp(`^${leadId}\\s+\\S+\\s+CA\\s+West Coast\\s+Cal Producer \\(${cal}\\)$`, 'm'),
    );
    expect(queue.out).toContain(`leadgate agencies assign ${agencyId} LEAD_ID AGENT_ID`);

    const refused = await leadgate(['agencies', 'assign', agencyId, leadId, boss]);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('AGENT_NOT_FOUND: Agent not found (The agency has no such producer)\n');
    const given = await leadgate(['agencies', 'assign', agencyId, leadId, cal]);
    expect(given.code, given.err).toBe(0);
    expect(given.out).toContain(`Lead ${leadId} given to ${cal}.`);
    expect(given.out).toMatch(/^rule:\s+reassigned$/m);
    expect(await agentOfLead(leadId)).toBe(cal);
    expect((await leadgate(['agencies', 'queue', agencyId])).out).toBe('The fallback queue is empty.\n');
  });

  it('When the manager invites from the CLI, then the producer joins with its own key, sees its membership, and leaves', async () => {
    const [boss, dee] = [await agent('Boss Invites'), await agent('Dee Producer')];
    const agencyId = await newAgency('Invite Agency', boss);
    const asDee = {
      LEADGATE_URL: url,
      ADMIN_API_KEY: String((await answer('agents', 'keys', 'create', dee)).key),
    };
    const invited = await leadgate(['agencies', 'invite', agencyId, '--states', 'tx,ok', '--cap', '5']);
    expect(invited.code, invited.err).toBe(0);
    const invitationId = /^invitation_id:\s+(\S{36})$/m.exec(invited.out)?.[1] ?? '';
    expect(invited.out).toContain(`leadgate agencies join ${agencyId} ${invitationId}`);
    expect((await leadgate(['agencies', 'invitations', agencyId])).out).toMatch(
      new RegExp(`^${invitationId}\\s+OK,TX\\s+1\\s+5\\s+\\S+$`, 'm'),
    );

    const joined = await leadgate(['agencies', 'join', agencyId, invitationId], asDee);
    expect(joined.code, joined.err).toBe(0);
    expect(joined.out).toContain('Joined Invite Agency as a producer.');
    expect((await leadgate(['agencies', 'memberships', '--agent', dee], asDee)).out).toMatch(
      new RegExp(`^${agencyId}\\s+OK,TX\\s+1\\s+5\\s+yes\\s+0\\s+Invite Agency$`, 'm'),
    );
    const again = await leadgate(['agencies', 'join', agencyId, invitationId], asDee);
    expect(again).toMatchObject({ code: 1, err: 'INVITATION_NOT_FOUND: Invitation not found\n' });

    const left = await leadgate(['agencies', 'remove-member', agencyId, dee], asDee);
    expect(left.code, left.err).toBe(0);
    expect((await leadgate(['agencies', 'memberships', '--agent', dee], asDee)).out).toBe(
      'A producer of no agency.\n',
    );
  });

  it('When the API refuses, then its code goes to stderr with exit 1; another agent’s key sees no agency', async () => {
    const missing = await leadgate(['agencies', 'show', randomUUID()]);
    expect(missing).toEqual({ code: 1, out: '', err: 'AGENCY_NOT_FOUND: Agency not found\n' });
    const boss = await agent('Boss Keyed');
    const agencyId = await newAgency('Keyed Agency', boss);
    const stranger = await answer('agents', 'keys', 'create', await agent('Stranger'));
    const asStranger = await leadgate(['agencies', 'show', agencyId], {
      LEADGATE_URL: url,
      ADMIN_API_KEY: String(stranger.key),
    });
    expect(asStranger.err).toBe('AGENCY_NOT_FOUND: Agency not found\n');
    const newcomer = await leadgate(['agencies', 'member', agencyId, await agent('Newcomer')]);
    expect(newcomer.code).toBe(1);
    expect(newcomer.err).toContain('give --states');
    const unknownState = await leadgate(['agencies', 'member', agencyId, boss, '--states', 'TX,ZZ']);
    expect(unknownState.err).toMatch(/^VALIDATION_ERROR: .*not ZZ/);
  });

  it.each([
    [
      'agencies create X --fallback AGENT_ID --claim-minutes 0',
      '--claim-minutes must be a whole number from 1 to 10080',
    ],
    [
      'agencies update AGENCY_ID --claim-minutes 15 --no-claim',
      'give --claim-minutes N or --no-claim, not both',
    ],
    ['agencies update AGENCY_ID', 'give what to change'],
    [
      'agencies member AGENCY_ID AGENT_ID --states Texas',
      '--states takes two-letter state codes separated by commas, e.g. TX,OK; not Texas',
    ],
    [
      'agencies member AGENCY_ID AGENT_ID --states TX --weight 101',
      '--weight must be a whole number from 1 to 100',
    ],
    ['agencies member AGENCY_ID AGENT_ID --states TX --cap lots', '--cap must be a whole number'],
    ['agencies member AGENCY_ID AGENT_ID --paused --active', 'give --paused or --active, not both'],
  ])('When `leadgate %s` is run, then the CLI refuses it before any request: %s', async (line, words) => {
    // A server that is not there: a request would say it cannot reach it.
    const res = await leadgate(line.split(' '), {
      LEADGATE_URL: `http://127.0.0.1:${await closedPort()}`,
      ADMIN_API_KEY: ADMIN_KEY,
    });
    expect(res.code).toBe(1);
    expect(res.err).toContain(words);
    expect(res.err).not.toContain('cannot reach');
  });
});

describe('leadgate report', () => {
  it('When a source delivered and sold, then `report` prints its row and the totals; `--csv` and `--json` as the API gives them', async () => {
    const s = await seedSource(t.db, 'CLI Report Agent');
    await t.db.query('UPDATE sources SET price_cents = 3000 WHERE source_id = $1', [s.source_id]);
    const lead = await deliver(t.app, s.token, { name: 'Paid Lead', phone: '3125550901' });
    const leadId = lead.json<{ lead_id: string }>().lead_id;
    await t.app.inject({
      method: 'POST',
      url: `/v1/admin/leads/${leadId}/sales`,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ premium_cents: 84_000 }),
    });

    const readable = await leadgate(['report', '--agent', s.agent_id]);
    expect(readable.code, readable.err).toBe(0);
    const lines = readable.out.split('\n');
    expect(lines[1]).toMatch(/^SOURCE +DELIVERED +BILLABLE/);
    expect(lines[2]).toMatch(
      /^CLI Report Agent source +1 +1 +0 +\$30\.00 +0 +1 +\$840\.00 +\$30\.00 +\$30\.00 +0\.0%/,
    );
    expect(lines[3]).toMatch(/^TOTAL +1 +1 +0 +\$30\.00/);

    const csv = await leadgate(['report', '--agent', s.agent_id, '--csv']);
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out.split('\r\n')).toEqual([
      expect.stringMatching(/^source_id,name,deliveries,/),
      expect.stringMatching(
        new RegExp(`^${s.source_id},CLI Report Agent source,1,1,0,0,3000,0,0,1,84000,3000,,3000,0,`),
      ),
    ]);
    const json = await leadgate(['report', '--agent', s.agent_id, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ totals: { spend_cents: 3000, premium_cents: 84_000 } });
  });

  it('When neither or both of --agent and --agency are given, then it says so and exits 1', async () => {
    const res = await leadgate(['report']);
    expect(res.code).toBe(1);
    expect(res.err).toContain('--agent or --agency');
  });
});
