import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits.ts';
import { loadConfig, optOutConfirmation } from './config.ts';

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

describe('DATABASE_URL', () => {
  it('When it names a Unix socket directory, then it is taken; when no PostgreSQL client could read it, then the server refuses to start with the reason', () => {
    const socket = 'postgres://leadgate@/leadgate?host=/var/run/postgresql';
    expect(loadConfig({ DATABASE_URL: socket }).databaseUrl).toBe(socket);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://h/db' })).toThrow(/must start with postgres/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h:notaport/db' })).toThrow(
      /DATABASE_URL cannot be read: Invalid URL/,
    );
  });

  it('When it names a primary and its standby (libpq’s form), then it is taken; a target that cannot take writes, or a host pg cannot read, refuses to start', () => {
    const both = 'postgres://u@db1:5432,db2:5432/leadgate?target_session_attrs=read-write';
    expect(loadConfig({ DATABASE_URL: both }).databaseUrl).toBe(both);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db1,db2/l?target_session_attrs=standby' })).toThrow(
      /DATABASE_URL cannot be read: target_session_attrs=standby names servers that cannot take writes/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://u@db1,db2/l', PGTARGETSESSIONATTRS: 'read-only' }),
    ).toThrow(/cannot take writes/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db1,db2:port/l' })).toThrow(
      /DATABASE_URL cannot be read/,
    );
  });
});

const PG = 'postgres://postgres@127.0.0.1:5432/test';

describe("the server's heap growth", () => {
  it('When HEAP_GROWTH_PERCENT is unset, 0 or a number, then it reads as the default, V8 its own, or that number; anything else refuses to start', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(LIMITS.heapGrowthPercent);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '30' }).heapGrowthPercent).toBe(30);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '-5' })).toThrow(/HEAP_GROWTH_PERCENT must be/);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: 'lots' })).toThrow(/HEAP_GROWTH_PERCENT must be/);
  });

  it('When SEMI_SPACE_MB is unset, then an embedded server limits its semi-space and a PostgreSQL one leaves it to V8; a number is that limit, 0 is V8 its own, anything else refuses to start', () => {
    expect(loadConfig({}).semiSpaceMb).toBe(LIMITS.embeddedSemiSpaceMb);
    expect(LIMITS.embeddedSemiSpaceMb).toBeGreaterThan(0);
    expect(loadConfig({ DATABASE_URL: PG }).semiSpaceMb).toBe(0);
    expect(loadConfig({ DATABASE_URL: PG, SEMI_SPACE_MB: '8' }).semiSpaceMb).toBe(8);
    expect(loadConfig({ SEMI_SPACE_MB: '0' }).semiSpaceMb).toBe(0);
    expect(() => loadConfig({ SEMI_SPACE_MB: '4MB' })).toThrow(/SEMI_SPACE_MB must be/);
    expect(() => loadConfig({ SEMI_SPACE_MB: '-1' })).toThrow(/SEMI_SPACE_MB must be/);
  });

  it('When EMBEDDED_SHARED_BUFFERS_MB is unset or a number of MB, then it reads as the default or that number; 0 or anything else refuses to start', () => {
    expect(loadConfig({}).embeddedSharedBuffersMb).toBe(LIMITS.embeddedSharedBuffersMb);
    expect(loadConfig({ EMBEDDED_SHARED_BUFFERS_MB: '24' }).embeddedSharedBuffersMb).toBe(24);
    expect(() => loadConfig({ EMBEDDED_SHARED_BUFFERS_MB: '0' })).toThrow(
      /EMBEDDED_SHARED_BUFFERS_MB must be/,
    );
    expect(() => loadConfig({ EMBEDDED_SHARED_BUFFERS_MB: '8MB' })).toThrow(
      /EMBEDDED_SHARED_BUFFERS_MB must be/,
    );
  });

  it('When EMBEDDED_RETURN_MEMORY is 0, then the embedded server keeps glibc as it is; unset, it gives freed memory back', () => {
    expect(loadConfig({}).embeddedReturnMemory).toBe(true);
    expect(loadConfig({ EMBEDDED_RETURN_MEMORY: '0' }).embeddedReturnMemory).toBe(false);
  });
});

describe('load shedding', () => {
  it('When MAX_EVENT_LOOP_DELAY_MS is unset, 0 or a number, then it reads as the default, never shedding, or that number; anything else refuses to start', () => {
    expect(loadConfig({}).maxEventLoopDelayMs).toBe(LIMITS.maxEventLoopDelayMs);
    expect(loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '0' }).maxEventLoopDelayMs).toBe(0);
    expect(loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '250' }).maxEventLoopDelayMs).toBe(250);
    expect(() => loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '1s' })).toThrow(/MAX_EVENT_LOOP_DELAY_MS must be/);
  });
});

describe('the webhook retry schedule', () => {
  it('When DELIVERY_RETRY_SCHEDULE is unset or starts with 0, then it reads as the attempts; a first entry other than 0, or a word, refuses to start', () => {
    expect(loadConfig({}).automations.retrySchedule).toEqual([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(loadConfig({ DELIVERY_RETRY_SCHEDULE: '0, 30s, 5m' }).automations.retrySchedule).toEqual([
      0, 30_000, 300_000,
    ]);
    expect(() => loadConfig({ DELIVERY_RETRY_SCHEDULE: '30s,5m' })).toThrow(
      /start with 0, the first attempt/,
    );
    expect(() => loadConfig({ DELIVERY_RETRY_SCHEDULE: '0,soon' })).toThrow(/"soon" is not a delay/);
  });
});

describe('who confirms an opt-out', () => {
  const TWILIO = {
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC1',
    TWILIO_AUTH_TOKEN: 't',
    TWILIO_FROM: '+15125550000',
  };
  it('When SMS_OPT_OUT_CONFIRMATION is unset, then Twilio confirms under Twilio and we do otherwise; set, it is as set; anything else refuses to start', () => {
    const confirms = (env: NodeJS.ProcessEnv) => optOutConfirmation(loadConfig(env).automations.sms);
    expect(confirms(TWILIO)).toBe('provider');
    expect(confirms({})).toBe('ours');
    expect(confirms({ SMS_WEBHOOK_URL: 'https://sms.example.com/send' })).toBe('ours');
    expect(confirms({ ...TWILIO, SMS_OPT_OUT_CONFIRMATION: 'ours' })).toBe('ours');
    expect(confirms({ SMS_OPT_OUT_CONFIRMATION: 'provider' })).toBe('provider');
    expect(() => loadConfig({ SMS_OPT_OUT_CONFIRMATION: 'twilio' })).toThrow(
      /SMS_OPT_OUT_CONFIRMATION must be provider or ours/,
    );
  });
});

describe('the SMS webhook', () => {
  it('When SMS_WEBHOOK_URL is no http(s) URL, then the server refuses to start, without quoting it (it may hold a password)', () => {
    const url = 'https://user:secret@sms.example.com:99999/send';
    let message = '';
    try {
      loadConfig({ SMS_WEBHOOK_URL: url });
    } catch (err) {
      message = String(err);
    }
    expect(message).toContain('SMS_WEBHOOK_URL must be an http:// or https:// URL');
    expect(message).not.toContain('secret');
    expect(() => loadConfig({ SMS_WEBHOOK_URL: 'ftp://sms.example.com/send' })).toThrow(/must be an http/);
    expect(
      loadConfig({ SMS_WEBHOOK_URL: 'https://user:secret@sms.example.com/send' }).automations.sms,
    ).toMatchObject({
      provider: 'http',
      webhookUrl: 'https://user:secret@sms.example.com/send',
    });
  });
});
