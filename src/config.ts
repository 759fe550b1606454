import { join, resolve } from 'node:path';

/**
 * Every fixed limit of the service, in one place: the code, the OpenAPI document and the tests read
 * them from here. What senders see of them is stated in docs/sender-contract.md.
 */
export const LIMITS = {
  /** Largest delivery body, inclusive (256 KiB). */
  maxBodyBytes: 262_144,
  /** Deepest bracket nesting of a delivery body. */
  maxJsonDepth: 32,
  /** How long an idempotency key is remembered. */
  idempotencyWindowHours: 24,
  /** Longest idempotency key, in characters. */
  idempotencyKeyMaxLength: 255,
  /** How often each server deletes expired idempotency keys. */
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
  /** Attempts of one delivery transaction that the database aborts as a deadlock or serialization failure. */
  transactionAttempts: 3,
  /** Rate-limit buckets kept in memory; beyond this, full buckets are forgotten. */
  rateLimitBuckets: 50_000,
  /** PostgreSQL connections per process, and how long to wait for one. */
  pgPoolSize: 10,
  pgConnectTimeoutMs: 5_000,
  /** Database calls that may wait for a connection before more are refused (503), by default. */
  dbMaxWaiting: 100,
  /** Admin API: page sizes, list lengths, input lengths, agenda windows. */
  leadsPageDefault: 50,
  leadsPageMax: 200,
  samplesListed: 100,
  eventsListed: 100,
  nameMaxLength: 200,
  searchMaxLength: 200,
  timezoneMaxLength: 64,
  signingKeyMaxLength: 1024,
  agendaDefaultDays: 30,
  agendaMaxDays: 366,
  /** How long the OpenAPI document may be cached. */
  openApiCacheSeconds: 300,
  /** How long the CLI waits for the server to answer. */
  cliTimeoutMs: 30_000,
} as const;

/** Configuration, parsed once from the environment. Fails fast with a readable message. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminApiKey: string | undefined;
  publicBaseUrl: string;
  logLevel: string;
  rateLimit: { rps: number; burst: number };
  /** Database calls that may wait for a connection before more are answered 503. */
  dbMaxWaiting: number;
  createDemo: boolean;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env, 'PORT', 3000, 0);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  const logLevel = env.LOG_LEVEL || 'info';
  if (!levels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}`);
  return {
    port,
    host,
    databaseUrl,
    dataDir: resolve(env.DATA_DIR || join(process.cwd(), 'data')),
    adminApiKey: env.ADMIN_API_KEY || undefined,
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
  };
}
