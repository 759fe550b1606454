import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration of the console and the client address', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['127.0.0.1', '127.0.0.1'],
    ['10.0.0.0/8, 127.0.0.1', '10.0.0.0/8, 127.0.0.1'],
  ])('When TRUST_PROXY is %j, then it reads as %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('When TRUST_PROXY or SESSION_SECRET is malformed, then the server refuses to start with the reason', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'every;one' })).toThrow(/TRUST_PROXY must be/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/at least 32 characters/);
    expect(loadConfig({ SESSION_SECRET: 'x'.repeat(32) }).sessionSecret).toBe('x'.repeat(32));
  });
});
