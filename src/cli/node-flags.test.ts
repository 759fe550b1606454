import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { serverNodeFlags } from './node-flags.ts';

describe('serverNodeFlags', () => {
  it.each<[string, Record<string, string>, string[]]>([
    ['an embedded server', {}, ['--heap-growing-percent=50', '--max-semi-space-size=4']],
    ['a PostgreSQL server', { DATABASE_URL: 'postgres://x@h/db' }, ['--heap-growing-percent=50']],
    [
      'settings of its own',
      { SEMI_SPACE_MB: '8', HEAP_GROWTH_PERCENT: '25' },
      ['--heap-growing-percent=25', '--max-semi-space-size=8'],
    ],
    ['both left to V8', { SEMI_SPACE_MB: '0', HEAP_GROWTH_PERCENT: '0' }, []],
  ])('When %s starts, then node is given %j', (_what, env, flags) => {
    expect(serverNodeFlags(loadConfig(env))).toEqual(flags);
  });

  it('When npm start runs the embedded server, then it gives node exactly the flags the server wants: no second process', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: { start: string };
    };
    const given = pkg.scripts.start.split(' ').filter((arg) => arg.startsWith('--'));
    expect(given.sort()).toEqual(serverNodeFlags(loadConfig({})).sort());
  });
});
