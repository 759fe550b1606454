import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { runCli } from '../src/cli/program.ts';
import { loadConfig } from '../src/config.ts';
import { printBanner } from '../src/banner.ts';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { blocks } from './support/doc-blocks.ts';

/**
 * The commands the README and the vendor guide show, run as a reader would run them against a live
 * server: the first start's banner and its curl line, the README's curl and Node examples (and the
 * answer it shows), the README's CLI lines, the routing guide's CLI lines, the vendor guide's curl.
 * Only the address, the token and the ids are replaced.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const run = promisify(execFile);

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** What printBanner writes for `demo`. */
function bannerLines(...args: Parameters<typeof printBanner>): string[] {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    printBanner(...args);
  } finally {
    spy.mockRestore();
  }
  return out.split('\n').filter(Boolean);
}

/** A shell command run as a reader runs it; its standard output. */
async function sh(command: string): Promise<string> {
  const { stdout } = await run('/bin/sh', ['-c', command], { cwd: ROOT, timeout: 20_000 });
  return stdout;
}

async function storedLead(leadId: string) {
  const { rows } = await t.db.query<{ name: string }>('SELECT name FROM leads WHERE lead_id = $1', [leadId]);
  return rows[0];
}

describe('docs: the commands they show run', () => {
  const login = { email: 'demo@leadgate.local', password: 'a-password-shown-once' };

  it("When the README shows the first start's banner, then each line is what the server prints", () => {
    const shown = blocks(read('README.md'), '## Run it', '')
      .find((block) => block.startsWith('Leadgate is listening'))
      ?.split('\n')
      .filter(Boolean);
    expect(shown?.length).toBeGreaterThan(10);
    const printed = bannerLines(
      loadConfig({ DATA_DIR: '/srv/leadgate/data' }),
      'http://127.0.0.1:3000',
      { key: 'k'.repeat(43), generated: true },
      {
        agent_id: '01a225a9-af0b-7c1e-9d2f-3a4b5c6d7e8f',
        source_id: '01a225a9-af11-7c1e-9d2f-3a4b5c6d7e8f',
        token: '41485dec-0e3c-4f6a-8b1d-2c3e4f5a6b7c',
        login,
      },
    );
    expect(printed).toHaveLength(shown?.length ?? 0);
    shown?.forEach((line, i) => {
      const pattern = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '.*');
      expect(printed[i], `banner line ${i + 1}`).toMatch(new RegExp(`^${pattern}$`));
    });
  });

  it("When the banner's curl line is run, then the demo source has the sample lead", async () => {
    const source = await seedSource(t.db, 'Demo Agent');
    const printed = bannerLines(
      loadConfig({ PORT: '0', DATA_DIR: '/srv/leadgate/data' }),
      url,
      { key: ADMIN_KEY, generated: false },
      { ...source, login },
    );
    const from = printed.indexOf('Try it:') + 1;
    const to = printed.findIndex((line) => line.startsWith('Agent console'));
    expect(to).toBeGreaterThan(from);
    const answer = JSON.parse(await sh(printed.slice(from, to).join('\n')));
    expect(answer).toMatchObject({ success: true, message: 'Lead created', agent_id: source.agent_id });
    expect(await storedLead(answer.lead_id)).toEqual({ name: 'Jane Doe' });
  });

  it("When the README's curl is run, then the answer is the one the README shows", async () => {
    // As of a day before the README's appointment, so the answer shown stays the answer (no
    // APPOINTMENT_IN_PAST) once the calendar passes it; the clock runs on from there.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-01T16:00:00Z'), shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const source = await seedSource(t.db, 'README Agent');
    const readme = read('README.md');
    const [command] = blocks(readme, '## Send a lead', 'sh');
    const [shown] = blocks(readme, '## Send a lead', 'json');
    const answer = JSON.parse(
      await sh((command ?? '').replaceAll('http://127.0.0.1:3000', url).replaceAll('<TOKEN>', source.token)),
    );
    const expected = JSON.parse(shown ?? '{}') as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected))
      if (value !== '…') expect(answer[key], key).toEqual(value);
    expect(await storedLead(answer.lead_id)).toEqual({ name: 'Jane Doe' });
  });

  it("When the README's Node example is run, then the client creates its lead", async () => {
    const source = await seedSource(t.db, 'Node Agent');
    const [code] = blocks(read('README.md'), '## Send a lead', 'js');
    expect(code).toContain("from '@leadgate/sender'");
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', (code ?? '').replaceAll('http://127.0.0.1:3000', url)],
      { cwd: ROOT, env: { ...process.env, LEADGATE_TOKEN: source.token }, timeout: 20_000 },
    );
    const [outcome, leadId] = stdout.trim().split(' ');
    expect(outcome).toBe('created');
    expect(await storedLead(leadId ?? '')).toEqual({ name: 'John Roe' });
  });

  it("When the README's CLI lines are run, then each answers", async () => {
    const source = await seedSource(t.db, 'CLI Agent');
    const delivered = await t.app.inject({
      method: 'POST',
      url: '/v1/inbound-lead-gateway',
      headers: { 'content-type': 'application/json', 'x-source-token': source.token },
      payload: { name: 'Cli Lead', phone: '(214) 555-0144' },
    });
    const ids: Record<string, string> = {
      '<AGENT_ID>': source.agent_id,
      '<SOURCE_ID>': source.source_id,
      '<LEAD_ID>': delivered.json<{ lead_id: string }>().lead_id,
    };
    const lines = blocks(read('README.md'), "## The agent's side", 'sh')
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('npx leadgate '));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      const command = line.replace(/\s+#.*$/, '').replace(/<[A-Z_]+>/g, (id) => ids[id] ?? id);
      const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '').slice(2);
      let err = '';
      const code = await runCli(['node', 'leadgate', ...args], {
        out: () => undefined,
        err: (s) => (err += s),
        env: { LEADGATE_URL: url, ADMIN_API_KEY: ADMIN_KEY },
      });
      expect(code, `${line}: ${err}`).toBe(0);
    }
  });

  it("When the routing guide's CLI lines are run, then the agency has its producer and its source", async () => {
    const fallback = (await seedSource(t.db, 'Routing Fallback')).agent_id;
    const producer = (await seedSource(t.db, 'Routing Producer')).agent_id;
    const lines = blocks(read('docs/routing.md'), '## Setting it up', 'sh')
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('leadgate '));
    expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'leadgate agencies create',
      'leadgate agencies member',
      'leadgate agencies source',
    ]);
    let agencyId = 'AGENCY_ID';
    let printed = '';
    for (const line of lines) {
      // The guide's AGENT_ID is the fallback producer when the agency is made, then a producer.
      const agent = line.includes(' create ') ? fallback : producer;
      const command = line
        .replace(/\s+#.*$/, '')
        .replace('AGENCY_ID', agencyId)
        .replace('AGENT_ID', agent);
      const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '').slice(1);
      let err = '';
      printed = '';
      const code = await runCli(['node', 'leadgate', ...args], {
        out: (s) => (printed += s),
        err: (s) => (err += s),
        env: { LEADGATE_URL: url, ADMIN_API_KEY: ADMIN_KEY },
      });
      expect(code, `${line}: ${err}`).toBe(0);
      agencyId = /^agency_id:\s+(\S+)$/m.exec(printed)?.[1] ?? agencyId;
    }
    expect(printed).toMatch(/^token:\s+\S{36}$/m); // the source's token, printed once
    const { rows } = await t.db.query<{
      name: string;
      timezone: string;
      licensed_states: string[];
      weight: number;
    }>(
      `SELECT a.name, a.timezone, m.licensed_states, m.weight FROM agencies a
         JOIN agency_members m USING (agency_id) JOIN sources s USING (agency_id)
        WHERE a.agency_id = $1 AND a.fallback_agent_id = $2 AND m.agent_id = $3 AND s.name = 'Vendor A'`,
      [agencyId, fallback, producer],
    );
    expect(rows).toEqual([
      { name: 'Lone Star Agency', timezone: 'America/Chicago', licensed_states: ['OK', 'TX'], weight: 2 },
    ]);
  });

  it("When the vendor guide's curl is run, then the lead lands", async () => {
    const source = await seedSource(t.db, 'Vendor Agent');
    const [command] = blocks(read('docs/senders.md'), '### curl', 'sh');
    const answer = JSON.parse(
      await sh(
        (command ?? '').replaceAll('https://leads.example.com', url).replaceAll('YOUR_TOKEN', source.token),
      ),
    );
    expect(answer).toMatchObject({ success: true, status: 'Scheduled', agent_id: source.agent_id });
  });
});
