import { join, resolve } from 'node:path';
import { parseIntoClientConfig } from 'pg-connection-string';
import { readDatabaseUrl } from './database-url.ts';
import { LIMITS } from './limits.ts';

/** Configuration, parsed once from the environment. Fails fast with a readable message. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminApiKey: string | undefined;
  /** Signs console cookies; unset: a secret generated once and kept in the database. */
  sessionSecret: string | undefined;
  /**
   * Seals the sources' Meta secrets (SECRETS_KEY); unset: DATA_DIR/secrets.key, made on first start.
   * Every server and worker of one database must have the same.
   */
  secretsKey: string | undefined;
  /** The Graph API the Meta leads are fetched from, with its version (META_GRAPH_URL). */
  metaGraphUrl: string;
  /** Whose X-Forwarded-For to believe: none (false), any (true), or these addresses and CIDRs. */
  trustProxy: boolean | string;
  publicBaseUrl: string;
  logLevel: string;
  rateLimit: { rps: number; burst: number };
  /** Database calls that may wait for a connection before more are answered 503. */
  dbMaxWaiting: number;
  /** Mean event-loop delay in ms above which requests are answered 503 (MAX_EVENT_LOOP_DELAY_MS); 0: never. */
  maxEventLoopDelayMs: number;
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
    twilio?: TwilioSettings;
    /** Shared secret of the inbound-SMS webhook (`x-sms-secret` header or `?secret=`). */
    inboundSecret?: string;
    /**
     * Who confirms an opt-out (SMS_OPT_OUT_CONFIRMATION): `provider`, which answers its own opt-out
     * keywords (Twilio does, so the default with it), or `ours`, a text of ours every time.
     * Read through `optOutConfirmation`, which gives the default when it is not set.
     */
    optOutConfirmation?: 'provider' | 'ours';
  };
  /** The consent evidence providers, for sources set to `consent: "verified"` (docs/consent-and-revocation.md). */
  consent?: ConsentProviders;
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** TWILIO_FROM: the number texts go from when their agent has none of its own (`sms_from`). */
  from: string;
  baseUrl: string;
  /** Where Twilio posts each text's status (`PUBLIC_BASE_URL` + /sms/status); none: not asked. */
  statusCallbackUrl?: string;
}

export interface ConsentProviders {
  /** TRUSTEDFORM_API_KEY, TRUSTEDFORM_BASE_URL (https://cert.trustedform.com). */
  trustedform?: { apiKey: string; baseUrl: string };
  /** JORNAYA_ACCOUNT_CODE, JORNAYA_AUDIT_KEY, JORNAYA_PROVIDER_CODE, JORNAYA_BASE_URL (https://api.leadid.com). */
  jornaya?: { accountCode: string; auditKey: string; providerCode: string; baseUrl: string };
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
 * DATABASE_URL read as the PostgreSQL driver will read it (db/postgres.ts): its hosts and
 * target_session_attrs (database-url.ts), each host as pg reads it, so a string it cannot read (or
 * whose certificate files are missing) is told at start, by name, not as a failed query. A Unix
 * socket's directory is a host like any other: `postgres://user@/db?host=/var/run/postgresql`.
 */
function checkConnectionString(databaseUrl: string, envTarget: string | undefined): void {
  try {
    for (const host of readDatabaseUrl(databaseUrl, envTarget).hosts) parseIntoClientConfig(host);
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
  if (databaseUrl) checkConnectionString(databaseUrl, env.PGTARGETSESSIONATTRS);
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  const logLevel = env.LOG_LEVEL || 'info';
  if (!levels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}`);
  const publicBaseUrl = (
    env.PUBLIC_BASE_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`
  ).replace(/\/+$/, '');
  return {
    port,
    host,
    databaseUrl,
    dataDir: resolve(env.DATA_DIR || join(process.cwd(), 'data')),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    sessionSecret: sessionSecretFrom(env),
    secretsKey: secretsKeyFrom(env),
    metaGraphUrl: metaGraphUrlFrom(env),
    trustProxy: trustProxyFrom(env),
    publicBaseUrl,
    logLevel,
    rateLimit: {
      rps: intFrom(env, 'RATE_LIMIT_RPS', 20, 0),
      burst: intFrom(env, 'RATE_LIMIT_BURST', 100, 1),
    },
    dbMaxWaiting: intFrom(env, 'DB_MAX_WAITING', LIMITS.dbMaxWaiting, 0),
    maxEventLoopDelayMs: intFrom(env, 'MAX_EVENT_LOOP_DELAY_MS', LIMITS.maxEventLoopDelayMs, 0),
    createDemo: env.LEADGATE_DEMO !== '0',
    heapGrowthPercent: intFrom(env, 'HEAP_GROWTH_PERCENT', LIMITS.heapGrowthPercent, 0),
    semiSpaceMb: intFrom(env, 'SEMI_SPACE_MB', databaseUrl ? 0 : LIMITS.embeddedSemiSpaceMb, 0),
    embeddedSharedBuffersMb: intFrom(env, 'EMBEDDED_SHARED_BUFFERS_MB', LIMITS.embeddedSharedBuffersMb, 1),
    embeddedReturnMemory: env.EMBEDDED_RETURN_MEMORY !== '0',
    automations: automationConfig(env, publicBaseUrl),
  };
}

function automationConfig(env: NodeJS.ProcessEnv, publicBaseUrl: string): AutomationConfig {
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
              // Twilio tells each text's fate here (conversations/status-route.ts).
              statusCallbackUrl: `${publicBaseUrl}/sms/status`,
            },
          }
        : {}),
      ...(env.SMS_INBOUND_SECRET ? { inboundSecret: env.SMS_INBOUND_SECRET } : {}),
      optOutConfirmation: optOutConfirmationFrom(env.SMS_OPT_OUT_CONFIRMATION, provider),
    },
    consent: consentProvidersFrom(env),
  };
}

/** Who confirms an opt-out under these SMS settings: as set, else the provider when it is Twilio. */
export const optOutConfirmation = (sms: AutomationConfig['sms']): 'provider' | 'ours' =>
  sms.optOutConfirmation ?? (sms.provider === 'twilio' ? 'provider' : 'ours');

function optOutConfirmationFrom(value: string | undefined, provider: string): 'provider' | 'ours' {
  if (value === undefined || value === '') return provider === 'twilio' ? 'provider' : 'ours';
  if (value === 'provider' || value === 'ours') return value;
  throw new ConfigError(`SMS_OPT_OUT_CONFIRMATION must be provider or ours, not ${JSON.stringify(value)}`);
}

function consentProvidersFrom(env: NodeJS.ProcessEnv): ConsentProviders {
  const { TRUSTEDFORM_API_KEY: key, JORNAYA_ACCOUNT_CODE: lac, JORNAYA_AUDIT_KEY: lak } = env;
  return {
    ...(key
      ? { trustedform: { apiKey: key, baseUrl: env.TRUSTEDFORM_BASE_URL || 'https://cert.trustedform.com' } }
      : {}),
    ...(lac && lak
      ? {
          jornaya: {
            accountCode: lac,
            auditKey: lak,
            providerCode: env.JORNAYA_PROVIDER_CODE ?? '',
            baseUrl: env.JORNAYA_BASE_URL || 'https://api.leadid.com',
          },
        }
      : {}),
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

function secretsKeyFrom(env: NodeJS.ProcessEnv): string | undefined {
  const key = env.SECRETS_KEY;
  if (!key) return undefined;
  if (key.length < 32) throw new ConfigError('SECRETS_KEY must be at least 32 characters');
  return key;
}

/** Meta's Graph API, at the version the connector was written for (docs/senders.md). */
export const META_GRAPH_URL = 'https://graph.facebook.com/v25.0';

function metaGraphUrlFrom(env: NodeJS.ProcessEnv): string {
  const url = env.META_GRAPH_URL || META_GRAPH_URL;
  if (!isHttpUrl(url)) throw new ConfigError('META_GRAPH_URL must be an http:// or https:// URL');
  return url.replace(/\/+$/, '');
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
