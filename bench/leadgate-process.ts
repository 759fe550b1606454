import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverNodeFlags } from '../src/cli/node-flags.ts';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/index.ts';
import { urlWithSchema } from '../test/support/db.ts';

export const ADMIN_KEY = 'bench-admin-key';

/** Starts `leadgate ARGS…` (compiled, as `npm start` runs it) and resolves once stdout matches `ready`. */
export async function startLeadgate(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const childEnv = {
    ...process.env,
    PORT: '0',
    RATE_LIMIT_RPS: '0',
    ADMIN_API_KEY: ADMIN_KEY,
    LEADGATE_DEMO: '0',
    ...env,
  };
  // Node started with the flags the server wants, as `npm start` does: no launcher in between.
  // BENCH_NODE_ARGS: more flags for the server's node (`--cpu-prof`, say), to see where its time goes.
  const nodeArgs = [
    ...serverNodeFlags(loadConfig(childEnv)),
    ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const child = spawn(process.execPath, [...nodeArgs, 'bin/leadgate.js', ...args], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const read = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (!m) return;
      // Ready: the rest of its output is read and dropped, not kept and searched (a server logging
      // every request at info would otherwise have the bench's own process copying a growing string).
      child.stdout?.off('data', read);
      child.stdout?.resume();
      resolve(m);
    };
    child.stdout?.on('data', read);
    child.once('exit', (code) => reject(new Error(`leadgate ${args.join(' ')} exited ${code}: ${out}`)));
  });
  return { child, match };
}

/** SIGTERM, and resolves once the process is gone. */
export async function stopLeadgate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** POST to the admin API; throws unless it answers 2xx. */
export async function adminPost<T>(url: string, path: string, body: object, method = 'POST'): Promise<T> {
  const res = await fetch(`${url}/v1/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** From the server's /metrics: its backlogs, and its JavaScript heap and external memory in MB. */
export async function serverFigures(url: string) {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const figure = (name: string) =>
    Number(new RegExp(`^leadgate_${name} ([\\d.e+]+)`, 'm').exec(metrics)?.[1] ?? 0);
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  return {
    heap: mb(figure('nodejs_heap_size_used_bytes')),
    external: mb(figure('nodejs_external_memory_bytes')),
    outbox: figure('outbox_depth'),
    textsDue: figure('texts_due'),
    stepsDue: figure('cadence_steps_due'),
  };
}

/**
 * A bench agent (zone America/Chicago) with one lead source through the admin API, and the
 * source's webhook destinations, one per kind given (kind → URL).
 */
export async function provisionSource(
  url: string,
  destinations: Record<string, string> = {},
): Promise<{ agentId: string; sourceId: string; token: string }> {
  const agent = await adminPost<{ agent_id: string }>(url, '/agents', {
    name: 'Bench Agent',
    timezone: 'America/Chicago',
  });
  const source = await adminPost<{ source_id: string; token: string }>(
    url,
    `/agents/${agent.agent_id}/sources`,
    { name: 'bench' },
  );
  for (const [kind, to] of Object.entries(destinations))
    await adminPost(url, `/sources/${source.source_id}/destinations`, { kind, url: to });
  return { agentId: agent.agent_id, sourceId: source.source_id, token: source.token };
}

/**
 * An agency of three producers licensed in Texas (where the bench's leads live) and its source: new
 * leads through it are routed to one of them in the delivery's transaction (docs/routing.md).
 */
export async function provisionAgencySource(url: string): Promise<{ token: string }> {
  const agent = (name: string) =>
    adminPost<{ agent_id: string }>(url, '/agents', { name, timezone: 'America/Chicago' });
  const fallback = await agent('Bench Agency Fallback');
  const agency = await adminPost<{ agency_id: string }>(url, '/agencies', {
    name: 'Bench Agency',
    fallback_agent_id: fallback.agent_id,
  });
  for (const name of ['Bench Producer 1', 'Bench Producer 2', 'Bench Producer 3']) {
    const producer = await agent(name);
    const member = `/agencies/${agency.agency_id}/members/${producer.agent_id}`;
    await adminPost(url, member, { licensed_states: ['TX'] }, 'PUT');
  }
  return adminPost<{ token: string }>(url, `/agencies/${agency.agency_id}/sources`, { name: 'bench agency' });
}

/**
 * A bench agent's source whose new leads follow a 30-step, 14-day cadence (docs/cadences.md): a
 * call at once, then calls and texts over two weeks, as an agent working bought leads sets it up.
 */
export async function provisionCadenceSource(url: string): Promise<{ token: string }> {
  const source = await provisionSource(url);
  const steps = Array.from({ length: 30 }, (_, i) =>
    i % 3 === 1
      ? {
          after_minutes: i * 672,
          action: 'text',
          body: 'Hi {first_name}, {agent_name} here about your quote.',
        }
      : { after_minutes: i * 672, action: 'call' },
  );
  const cadence = await adminPost<{ cadence_id: string }>(url, `/agents/${source.agentId}/cadences`, {
    name: 'Bench 14 days',
    steps,
  });
  await adminPost(url, `/sources/${source.sourceId}`, { cadence_id: cadence.cadence_id }, 'PATCH');
  return { token: source.token };
}

/** Runs `fn` with the URL of a fresh schema on the PostgreSQL server at `pgUrl`, dropped afterwards. */
export async function withSchema<T>(pgUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const owner = await createDb({ databaseUrl: pgUrl });
  await owner.query(`CREATE SCHEMA ${schema}`);
  try {
    return await fn(urlWithSchema(pgUrl, schema));
  } finally {
    await owner.query(`DROP SCHEMA ${schema} CASCADE`);
    await owner.close();
  }
}

/** Runs `fn` with a fresh embedded-database directory, removed afterwards. */
export async function withDataDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'leadgate-bench-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
