import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/index.ts';
import { createTokenChecks } from './token-checks.ts';
import { newSourceToken } from './tokens.ts';

const KEY_HEX = '6c6561646761746520746f6b656e206b657920666f722074657374732030303031';
const ISSUED = newSourceToken(Buffer.from(KEY_HEX, 'hex'));

/** A database with the installation's key, where `state.unchecked` says whether old tokens remain; it records each question. */
function fakeDb(state: { unchecked: boolean; down?: boolean }) {
  const asked: string[] = [];
  const db: Queryable = {
    query: async <T>(sql: string) => {
      if (state.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      asked.push(sql);
      const rows = sql.includes('FROM settings') ? [{ value: KEY_HEX }] : [{ unchecked: state.unchecked }];
      return { rows: rows as T[], rowCount: rows.length };
    },
  };
  return { db, asked: () => asked.filter((sql) => sql.includes('token_checked')).length };
}

/** Checks over `fakeDb(state)` that have asked once; `later(ms)` moves their clock on. */
async function startedChecks(state: { unchecked: boolean; down?: boolean }) {
  let now = 0;
  const { db, asked } = fakeDb(state);
  const checks = createTokenChecks(db, { recheckMs: 1_000, now: () => now });
  await checks.refresh();
  return { checks, asked, later: (ms: number) => void (now += ms) };
}

describe('createTokenChecks', () => {
  it('When no source has a token without a check, then a made-up token is refused and an issued one may name a source', async () => {
    const { checks } = await startedChecks({ unchecked: false });
    expect(checks.mayName(randomUUID())).toBe(false);
    expect(checks.mayName(ISSUED)).toBe(true);
    expect(checks.mayName(ISSUED.toUpperCase())).toBe(true);
  });

  it.each([
    [
      'a token without a check appears later (an older process, a restored database)',
      'tokens are looked up again once the process has asked again',
      false,
    ],
    [
      'a source still has a token from before the checks',
      'every token may name one until the database says none is left',
      true,
    ],
  ] as const)('When %s, then %s', async (_when, _then, unchecked) => {
    const state = { unchecked };
    const { checks, asked, later } = await startedChecks(state);
    const madeUp = randomUUID();
    expect(checks.mayName(madeUp)).toBe(unchecked);
    state.unchecked = !unchecked; // an old token appears, or the agent regenerated the last one
    later(999);
    expect(checks.mayName(madeUp)).toBe(unchecked); // not asked again before recheckMs
    expect(asked()).toBe(1);
    later(1);
    expect(checks.mayName(madeUp)).toBe(unchecked); // asks now; this token is decided as before meanwhile
    await checks.refresh(); // the question under way
    expect(asked()).toBe(2);
    expect(checks.mayName(madeUp)).toBe(!unchecked);
  });

  it('When the database does not answer, then every token may name a source, and it is asked again later', async () => {
    const state = { unchecked: false, down: true };
    const { checks, asked, later } = await startedChecks(state);
    expect(checks.mayName(randomUUID())).toBe(true);
    state.down = false;
    later(1_000);
    checks.mayName(randomUUID());
    await checks.refresh(); // the question under way
    expect(asked()).toBe(1);
    expect(checks.mayName(randomUUID())).toBe(false);
  });

  it('When the database stops answering after saying none is left, then made-up tokens are still refused', async () => {
    const state = { unchecked: false, down: false };
    const { checks, later } = await startedChecks(state);
    state.down = true;
    later(1_000);
    checks.mayName(randomUUID());
    await checks.refresh();
    expect(checks.mayName(randomUUID())).toBe(false);
  });

  it('Before the database has answered, every token may name a source', () => {
    const { db } = fakeDb({ unchecked: false });
    expect(createTokenChecks(db).mayName(randomUUID())).toBe(true);
  });
});
