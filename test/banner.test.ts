import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { printBanner } from '../src/banner.ts';

/** What printBanner writes to standard output. */
function banner(...args: Parameters<typeof printBanner>): string {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  printBanner(...args);
  return out;
}
afterEach(() => vi.restoreAllMocks());

describe('the start-up banner', () => {
  const KEY = 'k'.repeat(32);
  const url = 'http://127.0.0.1:3000';

  it('When the admin key was just generated, then it is shown once, with where it is kept', () => {
    const config = loadConfig({ DATA_DIR: '/srv/leadgate' });
    const out = banner(config, url, { key: KEY, generated: true }, null);
    expect(out).toContain(
      `Admin API key: ${KEY}  (generated, saved to ${join('/srv/leadgate', 'admin.key')})`,
    );
  });

  it('When the key was made before, or comes from ADMIN_API_KEY, then the banner says where it is and never shows it (standard output is often a log)', () => {
    const fromFile = banner(
      loadConfig({ DATA_DIR: '/srv/leadgate' }),
      url,
      { key: KEY, generated: false },
      null,
    );
    expect(fromFile).toContain(`Admin API key: in ${join('/srv/leadgate', 'admin.key')}`);
    expect(fromFile).not.toContain(KEY);
    const fromEnv = banner(loadConfig({ ADMIN_API_KEY: KEY }), url, { key: KEY, generated: false }, null);
    expect(fromEnv).toContain('Admin API key: the one in ADMIN_API_KEY');
    expect(fromEnv).not.toContain(KEY);
  });

  it('When the server starts again on its data, then the banner still names the demo agent, its source and the console', () => {
    const out = banner(
      loadConfig({ DATA_DIR: '/srv/leadgate' }),
      url,
      { key: KEY, generated: false },
      {
        agent_id: '01a225a9-af0b-7c1e-9d2f-3a4b5c6d7e8f',
        source_id: '01a225a9-af11-7c1e-9d2f-3a4b5c6d7e8f',
        token: null,
        login: { email: 'demo@leadgate.local', password: null },
      },
    );
    expect(out).toContain(
      'Demo agent 01a225a9-af0b-7c1e-9d2f-3a4b5c6d7e8f, lead source 01a225a9-af11-7c1e-9d2f-3a4b5c6d7e8f',
    );
    expect(out).toContain(`Agent console: ${url}/console`);
    expect(out).toContain('Demo login: demo@leadgate.local (password shown on first start');
  });

  it('When there is no demo agent (LEADGATE_DEMO=0, or agents made before), then the banner says how to list the agents and where the console is', () => {
    const out = banner(
      loadConfig({ DATABASE_URL: 'postgres://db/leadgate' }),
      url,
      { key: KEY, generated: false },
      null,
    );
    expect(out).toContain('Agents and their ids: npx leadgate agents list');
    expect(out).toContain(`Agent console: ${url}/console`);
  });
});
