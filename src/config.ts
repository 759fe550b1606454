import { join, resolve } from 'node:path';

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
    createDemo: env.LEADGATE_DEMO !== '0',
  };
}
