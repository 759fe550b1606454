import { join, resolve } from 'node:path';
import { parseIntoClientConfig } from 'pg-connection-string';

/**
 * Every fixed limit of the service, in one place: the code, the OpenAPI document and the tests read
 * them from here. What senders see of them is stated in docs/sender-contract.md.
 */
export const LIMITS = {
  /** Largest delivery body, inclusive (256 KiB). */
  maxBodyBytes: 262_144,
  /**
   * How long any request may take to arrive whole, headers and body: a client that stalls is
   * answered 408 and its connection closed, so stalled uploads cannot hold connections forever.
   */
  requestTimeoutMs: 30_000,
  /** Deepest bracket nesting of a delivery body (JSON, XML elements, form fields holding JSON). */
  maxJsonDepth: 32,
  /** Most members (object keys, list items, XML elements, form fields) in one delivery body. */
  maxBodyMembers: 5_000,
  /** How long an idempotency key is remembered. */
  idempotencyWindowHours: 24,
  /** Longest idempotency key, in characters. */
  idempotencyKeyMaxLength: 255,
  /** A scheduler's invitee URI longer than this is kept as `sha256:<hex>` (it keys several indexes). */
  inviteeUriMaxLength: 255,
  /** How often each server deletes expired idempotency keys and samples past their retention. */
  idempotencyPurgeMs: 10 * 60_000,
  /** The accepted age range of a contact, inclusive (the specification's limit). */
  minAge: 18,
  maxAge: 120,
  /** A booking-scheduler signature older (or newer) than this is refused. */
  signatureToleranceSeconds: 300,
  /** `Retry-After` of a 503 (database unreachable, overload, shutting down), in seconds. */
  unavailableRetryAfterSeconds: 1,
  /** Mean event-loop delay above which requests are answered 503 (the process is saturated). */
  maxEventLoopDelayMs: 1_000,
  /**
   * After SIGTERM the server keeps listening this long, answering 503 and not ready, so a load
   * balancer or a sender sees it leave; then it stops accepting.
   */
  shutdownDrainMs: 500,
  /** How long a shutdown waits for in-flight requests before closing their connections. */
  shutdownGraceMs: 10_000,
  /** How long start-up waits for an unreachable database before giving up. */
  startupDatabaseWaitMs: 30_000,
  /** `serve --workers N`: the longest wait before a worker that keeps dying is started again. */
  workerRestartMaxMs: 30_000,
  /** Attempts of one delivery transaction that the database aborts as a deadlock or serialization failure. */
  transactionAttempts: 3,
  /**
   * How long a process remembers that a token is unknown, so a flood of made-up tokens is answered
   * 401 without a database round trip each; and how many such tokens it remembers at most.
   */
  unknownTokenCacheMs: 5_000,
  unknownTokenCacheSize: 10_000,
  /**
   * How long a process keeps a valid token's source in memory (every write still has the database
   * check the token and the source's revision), how many at most, and how many token lookups one
   * query makes.
   */
  knownTokenCacheMs: 60_000,
  knownTokenCacheSize: 10_000,
  tokenLookupBatch: 500,
  /**
   * How often, at most, a process asks whether any source has a token issued without a check
   * (before checks were issued): while one does, a token that fails the check is looked up all the
   * same (src/sources/token-checks.ts).
   */
  uncheckedTokensRecheckMs: 60_000,
  /**
   * A server's JavaScript heap may grow this many percent past what its last full collection kept
   * before the next one (HEAP_GROWTH_PERCENT): V8's own, larger factor lets a busy server's memory
   * swing widely. Set as node starts (cli/node-flags.ts).
   */
  heapGrowthPercent: 50,
  /**
   * An embedded server, which holds its database as well, keeps its young generation's semi-space
   * to 4 MB of V8's 16 (SEMI_SPACE_MB): memory is what a small machine is short of. Set as node
   * starts (cli/node-flags.ts).
   */
  embeddedSemiSpaceMb: 4,
  /** Resends (source, key, body digest) each process remembers as having used their key. */
  exactRetriesRemembered: 20_000,
  /** Contacts (agent, phone or email) each process remembers having written: their next delivery is a merge. */
  recentContactsRemembered: 20_000,
  /** Rate-limit buckets kept in memory; beyond this, full buckets are forgotten. */
  rateLimitBuckets: 50_000,
  /**
   * The embedded database's shared buffers in MB (a server's default is 128; the setting is
   * EMBEDDED_SHARED_BUFFERS_MB), and how often it is vacuumed and analyzed: PGlite runs PostgreSQL
   * in single-user mode, without autovacuum.
   */
  embeddedSharedBuffersMb: 8,
  embeddedMaintenanceMs: 30_000,
  /** The embedded database's thread's young generation, in MB (db/pglite-thread.ts). */
  embeddedThreadYoungMb: 4,
  /**
   * An embedded server gives the memory it freed back to the system (db/freed-memory.ts, on Linux
   * with glibc): blocks of this size and more as soon as they are freed, the rest this often.
   */
  embeddedMapAtLeastBytes: 128 * 1024,
  embeddedTrimMs: 5_000,
  /** …and at the next check of this many ms once the process's memory grew by embeddedTrimGrownMb. */
  embeddedTrimCheckMs: 1_000,
  embeddedTrimGrownMb: 32,
  /** How often the tables that grew by a tenth since their statistics are looked for (and analyzed). */
  statisticsCheckMs: 2_000,
  /** PostgreSQL connections per process, and how long to wait for one. */
  pgPoolSize: 10,
  /**
   * A shared statement's round trips a process runs at once on PostgreSQL (db/together.ts: new
   * contacts, merges, Listen samples); the embedded database runs one.
   */
  sharedStatements: 4,
  pgConnectTimeoutMs: 5_000,
  /** Database calls that may wait for a connection before more are refused (503), by default. */
  dbMaxWaiting: 100,
  /** Admin API: page sizes, list lengths, input lengths, agenda windows. */
  leadsPageDefault: 50,
  leadsPageMax: 200,
  samplesListed: 100,
  eventsListed: 100,
  nameMaxLength: 200,
  /** Console passwords: at least this many characters (issue: 12), at most the max. */
  passwordMinLength: 12,
  passwordMaxLength: 1024,
  emailMaxLength: 254,
  /** Console logins: this many failures per email or per client address within the window → 429. */
  loginFailuresAllowed: 10,
  loginFailureWindowMs: 15 * 60_000,
  /** A source's own rate limit (PATCH /sources/:id), at most (the database's CHECK holds the same). */
  sourceRateMaxRps: 10_000,
  sourceRateMaxBurst: 100_000,
  /** Dial queue: a task marked "no answer" comes back after this long; this many calls close it. */
  noAnswerRetryMs: 3600_000,
  noAnswerCallsMax: 3,
  /** A console session lasts this long without a new login. */
  sessionMaxAgeMs: 12 * 3600_000,
  searchMaxLength: 200,
  timezoneMaxLength: 64,
  signingKeyMaxLength: 1024,
  agendaDefaultDays: 30,
  agendaMaxDays: 366,
  /** How long the OpenAPI document may be cached. */
  openApiCacheSeconds: 300,
  /** How long the CLI waits for the server to answer. */
  cliTimeoutMs: 30_000,
  /** Webhook retries: at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then dead. */
  deliveryRetrySchedule: '0,5s,5m,30m,2h,5h,10h,10h',
  /** How often an idle dispatcher looks for work, and how much it takes at a time. */
  dispatcherPollMs: 250,
  dispatcherBatch: 200,
  /** Numbers a dispatcher texts at once (each number's texts still go one at a time, in order). */
  textConcurrency: 16,
  /** How long a worker holds a delivery or a text it is sending before another may take it. */
  dispatchLeaseMs: 30_000,
  /** How long a webhook receiver or an SMS provider has to answer. */
  outboundTimeoutMs: 10_000,
  /** A destination failing this long without one success is disabled. */
  destinationDisableAfterMs: 5 * 86_400_000,
  /** Rows the admin API lists at most (deliveries, dial queue). */
  listedRows: 200,
  /** The longest text template an agent may set, and the longest destination URL. */
  smsTemplateMaxLength: 640,
  destinationUrlMaxLength: 2048,
} as const;

/** Configuration, parsed once from the environment. Fails fast with a readable message. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminApiKey: string | undefined;
  /** Signs console cookies; unset: a secret generated once and kept in the database. */
  sessionSecret: string | undefined;
  /** Whose X-Forwarded-For to believe: none (false), any (true), or these addresses and CIDRs. */
  trustProxy: boolean | string;
  publicBaseUrl: string;
  logLevel: string;
  rateLimit: { rps: number; burst: number };
  /** Database calls that may wait for a connection before more are answered 503. */
  dbMaxWaiting: number;
  createDemo: boolean;
  /**
   * How far V8 lets the JavaScript heap grow past what the last full collection kept before it
   * collects again, in percent (HEAP_GROWTH_PERCENT); 0 leaves it to V8.
   */
  heapGrowthPercent: number;
  /** The most MB the young generation's semi-space grows to (SEMI_SPACE_MB; 0 on PostgreSQL: V8's own, 4 embedded). */
  semiSpaceMb: number;
  /**
   * The embedded database's shared buffers in MB (EMBEDDED_SHARED_BUFFERS_MB): less memory for
   * more reads of its files (through the system's cache).
   */
  embeddedSharedBuffersMb: number;
  /** Whether an embedded server gives the memory it frees back to the system (EMBEDDED_RETURN_MEMORY; db/freed-memory.ts). */
  embeddedReturnMemory: boolean;
  automations: AutomationConfig;
}

export interface AutomationConfig {
  /** Whether `serve` runs the dispatcher too (off: run `leadgate worker` beside it). */
  dispatcherInServe: boolean;
  /** Webhook attempts, in milliseconds (DELIVERY_RETRY_SCHEDULE): 0 for the first, then the wait after each failure. */
  retrySchedule: number[];
  allowPrivateDestinations: boolean;
  sms: {
    provider: 'recorder' | 'http' | 'twilio';
    webhookUrl?: string;
    twilio?: { accountSid: string; authToken: string; from: string; baseUrl: string };
    /** Shared secret of the inbound-SMS webhook (`x-sms-secret` header or `?secret=`). */
    inboundSecret?: string;
  };
}

export class ConfigError extends Error {}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

/**
 * DATABASE_URL read as the PostgreSQL driver will read it (db/postgres.ts), so a string it cannot
 * read (or whose certificate files are missing) is told at start, by name, not as a failed query.
 * A Unix socket's directory is a host like any other: `postgres://user@/db?host=/var/run/postgresql`.
 */
function checkConnectionString(databaseUrl: string): void {
  try {
    parseIntoClientConfig(databaseUrl);
  } catch (err) {
    throw new ConfigError(`DATABASE_URL cannot be read: ${(err as Error).message}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env, 'PORT', 3000, 0);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  if (databaseUrl) checkConnectionString(databaseUrl);
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  const logLevel = env.LOG_LEVEL || 'info';
  if (!levels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}`);
  return {
    port,
    host,
    databaseUrl,
    dataDir: resolve(env.DATA_DIR || join(process.cwd(), 'data')),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    sessionSecret: sessionSecretFrom(env),
    trustProxy: trustProxyFrom(env),
    publicBaseUrl: (
      env.PUBLIC_BASE_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`
    ).replace(/\/+$/, ''),
    logLevel,
    rateLimit: {
      rps: intFrom(env, 'RATE_LIMIT_RPS', 20, 0),
      burst: intFrom(env, 'RATE_LIMIT_BURST', 100, 1),
    },
    dbMaxWaiting: intFrom(env, 'DB_MAX_WAITING', LIMITS.dbMaxWaiting, 0),
    createDemo: env.LEADGATE_DEMO !== '0',
    heapGrowthPercent: intFrom(env, 'HEAP_GROWTH_PERCENT', LIMITS.heapGrowthPercent, 0),
    semiSpaceMb: intFrom(env, 'SEMI_SPACE_MB', databaseUrl ? 0 : LIMITS.embeddedSemiSpaceMb, 0),
    embeddedSharedBuffersMb: intFrom(env, 'EMBEDDED_SHARED_BUFFERS_MB', LIMITS.embeddedSharedBuffersMb, 1),
    embeddedReturnMemory: env.EMBEDDED_RETURN_MEMORY !== '0',
    automations: automationConfig(env),
  };
}

function automationConfig(env: NodeJS.ProcessEnv): AutomationConfig {
  const provider = env.SMS_PROVIDER || (env.SMS_WEBHOOK_URL ? 'http' : 'recorder');
  if (provider !== 'recorder' && provider !== 'http' && provider !== 'twilio') {
    throw new ConfigError('SMS_PROVIDER must be recorder, http or twilio');
  }
  if (provider === 'http' && !env.SMS_WEBHOOK_URL)
    throw new ConfigError('SMS_PROVIDER=http needs SMS_WEBHOOK_URL');
  if (env.SMS_WEBHOOK_URL && !isHttpUrl(env.SMS_WEBHOOK_URL))
    throw new ConfigError('SMS_WEBHOOK_URL must be an http:// or https:// URL'); // not echoed: it may hold a password
  const { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token, TWILIO_FROM: from } = env;
  if (provider === 'twilio' && !(sid && token && from)) {
    throw new ConfigError('SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM');
  }
  return {
    dispatcherInServe: env.LEADGATE_DISPATCHER !== '0',
    retrySchedule: retryScheduleFrom(env),
    allowPrivateDestinations: env.ALLOW_PRIVATE_DESTINATIONS === 'true',
    sms: {
      provider,
      ...(env.SMS_WEBHOOK_URL ? { webhookUrl: env.SMS_WEBHOOK_URL } : {}),
      ...(provider === 'twilio' && sid && token && from
        ? {
            twilio: {
              accountSid: sid,
              authToken: token,
              from,
              baseUrl: env.TWILIO_BASE_URL || 'https://api.twilio.com',
            },
          }
        : {}),
      ...(env.SMS_INBOUND_SECRET ? { inboundSecret: env.SMS_INBOUND_SECRET } : {}),
    },
  };
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `0,5s,5m,2h` → delays in milliseconds; a bare number is milliseconds. */
/**
 * When a webhook delivery is attempted: the first entry stands for the first attempt, made at once,
 * and each next one is the wait after a failure; after the last, the delivery is dead. A first
 * entry other than 0 is refused: it would be read as the first retry's wait and silently skipped.
 */
function retryScheduleFrom(env: NodeJS.ProcessEnv): number[] {
  const schedule = parseDelays(
    'DELIVERY_RETRY_SCHEDULE',
    env.DELIVERY_RETRY_SCHEDULE || LIMITS.deliveryRetrySchedule,
  );
  if (schedule[0] !== 0) {
    throw new ConfigError(
      'DELIVERY_RETRY_SCHEDULE: start with 0, the first attempt (made at once); then the waits after each failure (e.g. 0,5s,5m,30m)',
    );
  }
  return schedule;
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export function parseDelays(name: string, text: string): number[] {
  return text.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(part);
    if (!m?.[1]) throw new ConfigError(`${name}: "${part.trim()}" is not a delay (use e.g. 0,5s,5m,30m,2h)`);
    return Math.round(Number(m[1]) * (UNITS[m[2] ?? 'ms'] ?? 1));
  });
}

function sessionSecretFrom(env: NodeJS.ProcessEnv): string | undefined {
  const secret = env.SESSION_SECRET;
  if (!secret) return undefined;
  if (secret.length < 32) throw new ConfigError('SESSION_SECRET must be at least 32 characters');
  return secret;
}

function trustProxyFrom(env: NodeJS.ProcessEnv): boolean | string {
  const value = (env.TRUST_PROXY ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (!/^[\w.:/,\s]+$/.test(value)) {
    throw new ConfigError('TRUST_PROXY must be true, false, or addresses and CIDRs separated by commas');
  }
  return value;
}
