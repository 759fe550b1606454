import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app.ts';
import { LIMITS } from './limits.ts';
import { type Config } from './config.ts';
import { isTransientDbError } from './db/database.ts';
import { createDb, type Database } from './db/index.ts';
import { maintainTables } from './db/maintenance.ts';
import { migrate } from './db/migrate.ts';
import { acquireDataDirLock, type DataDirLock } from './db/data-dir-lock.ts';
import { ensureDemoSource, type DemoSource } from './admin/demo.ts';
import { purgeEndedSessions } from './console/session.ts';
import { createDispatcher } from './automations/dispatcher.ts';
import { queueStats } from './automations/queue-stats.ts';
import { createMetrics } from './metrics/metrics.ts';
import { purgeExpiredKeys } from './idempotency/key-store.ts';
import { purgeExpiredSamples } from './listen/listen-sample-repository.ts';
import { printBanner } from './banner.ts';
import { createMetaFetcher } from './meta-fetch/meta-leads.ts';
import { createSecretBox, newSecretsKey, type SecretBox } from './sources/secrets.ts';

export interface RunningServer {
  app: FastifyInstance;
  db: Database;
  url: string;
  stop(): Promise<void>;
}

/** The configured database (and, embedded, its DATA_DIR lock); `close` closes both, never throws. */
async function openDatabase(
  config: Config,
  onConnectionError?: (err: Error) => void,
): Promise<{ db: Database; close: () => Promise<void> }> {
  const common = { maxWaiting: config.dbMaxWaiting, onConnectionError };
  const opened = (db: Database, lock: DataDirLock | null) => ({
    db,
    close: async () => {
      await db.close().catch(() => undefined);
      lock?.release();
    },
  });
  if (config.databaseUrl) return opened(await createDb({ ...common, databaseUrl: config.databaseUrl }), null);
  const lock = await acquireDataDirLock(config.dataDir);
  try {
    return opened(
      await createDb({
        ...common,
        pgliteDir: join(config.dataDir, 'pgdata'),
        pgliteSharedBuffersMb: config.embeddedSharedBuffersMb,
        pgliteReturnsMemory: config.embeddedReturnMemory,
      }),
      lock,
    );
  } catch (err) {
    lock.release();
    throw err;
  }
}

/**
 * SIGTERM/SIGINT run `stop` and exit 0 (1 when it fails). A repeated SIGTERM (a supervisor's
 * retry) waits for the same shutdown; a second Ctrl-C forces it.
 */
function exitOnSignals(stop: () => Promise<void>, log: Pick<pino.Logger, 'info' | 'error'>): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) {
        if (signal === 'SIGINT') process.exit(130);
        return;
      }
      stopping = true;
      log.info({ signal }, 'shutting down');
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

/**
 * Runs `step` until the database answers: a server started while PostgreSQL restarts (or before it,
 * as under a supervisor) waits for it rather than exiting, up to LIMITS.startupDatabaseWaitMs.
 */
async function whenDatabaseAnswers<T>(step: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LIMITS.startupDatabaseWaitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (!isTransientDbError(err) || Date.now() >= deadline) throw err;
      if (attempt === 1) process.stderr.write(`Waiting for the database: ${(err as Error).message}\n`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * What `serve --workers N` does once, before its workers start: migrations, the admin key, the demo
 * source on first start. Returns what the banner shows.
 */
export async function prepareDatabase(config: Config): ReturnType<typeof prepare> {
  const { db, close } = await openDatabase(config);
  try {
    return await prepare(db, config);
  } finally {
    await close();
  }
}

/** Migrations (waiting for the database), the admin key, the demo source on first start. */
async function prepare(
  db: Database,
  config: Config,
): Promise<{ admin: { key: string; generated: boolean }; demo: DemoSource | null; secrets: SecretBox }> {
  await whenDatabaseAnswers(() => migrate(db));
  const admin = resolveAdminKey(config);
  const secrets = createSecretBox(resolveSecretsKey(config));
  const demo = config.createDemo ? await whenDatabaseAnswers(() => ensureDemoSource(db)) : null;
  return { admin, demo, secrets };
}

export async function runMigrations(config: Config): Promise<string[]> {
  const { db, close } = await openDatabase(config);
  try {
    return await migrate(db);
  } finally {
    await close();
  }
}

/** The admin key: ADMIN_API_KEY, else DATA_DIR/admin.key, generated (mode 0600) on first start. */
export function resolveAdminKey(config: Config): { key: string; generated: boolean } {
  if (config.adminApiKey) return { key: config.adminApiKey, generated: false };
  const file = join(config.dataDir, 'admin.key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(24).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key, generated: true };
}

/**
 * The key the sources' Meta secrets are sealed with: SECRETS_KEY, else DATA_DIR/secrets.key,
 * generated (mode 0600) on first start. Never in the database, so a copy of it alone opens nothing.
 */
export function resolveSecretsKey(config: Config): string {
  if (config.secretsKey) return config.secretsKey;
  const file = join(config.dataDir, 'secrets.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const key = newSecretsKey();
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process of this DATA_DIR made it first: its key is the installation's.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  chmodSync(file, 0o600);
  return key;
}

/**
 * Starts the gateway: database, migrations, admin key, demo source on first start, listen.
 * SIGTERM/SIGINT stop accepting, let in-flight requests finish, then close the database.
 */
export async function startServer(
  config: Config,
  opts: { handleSignals?: boolean; banner?: boolean } = {},
): Promise<RunningServer> {
  // A connection that fails (a database restart, a killed backend) is logged; the process goes on.
  let reportConnectionError = (err: Error): void => {
    process.stderr.write(`database connection failed: ${err.message}\n`);
  };
  const { db, close: cleanup } = await openDatabase(config, (err) => reportConnectionError(err));
  const lifecycle = { closing: false };
  const metrics = createMetrics(() => queueStats(db));
  let app: FastifyInstance;
  let prepared: Awaited<ReturnType<typeof prepare>>;
  let wakeMetaFetcher = (): void => undefined;
  try {
    prepared = await prepare(db, config);
    const { admin } = prepared;
    app = await buildApp({
      db,
      metrics,
      adminApiKey: admin.key,
      secrets: prepared.secrets,
      metaQueued: () => wakeMetaFetcher(),
      publicBaseUrl: config.publicBaseUrl,
      rateLimit: config.rateLimit,
      logLevel: config.logLevel,
      lifecycle,
      maxEventLoopDelayMs: config.maxEventLoopDelayMs,
      sms: config.automations.sms,
      allowPrivateDestinations: config.automations.allowPrivateDestinations,
      ...(config.sessionSecret ? { sessionSecret: config.sessionSecret } : {}),
      trustProxy: config.trustProxy,
    });
    reportConnectionError = (err) => {
      app.log.warn({ err }, 'database connection failed; the pool reconnects');
    };
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await cleanup();
    throw err;
  }

  const purge = setInterval(() => purgeExpiredRows(db, app.log), LIMITS.idempotencyPurgeMs);
  purge.unref();
  const stopMaintenance = await maintainTables(db, app.log);
  const dispatcher = createDispatcher(db, config.automations, app.log, { metrics });
  const metaFetcher = createMetaFetcher(db, metaOptions(config, prepared.secrets, app.log, metrics));
  wakeMetaFetcher = () => metaFetcher.wake();
  if (config.automations.dispatcherInServe) {
    dispatcher.start();
    metaFetcher.start();
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      lifecycle.closing = true; // not ready; new requests are answered 503 with Retry-After
      clearInterval(purge);
      stopMaintenance();
      await new Promise((resolve) => setTimeout(resolve, LIMITS.shutdownDrainMs));
      await closeWithin(app, LIMITS.shutdownGraceMs); // in-flight requests finish, within bounds
      await dispatcher.stop();
      await metaFetcher.stop();
      await cleanup();
    })());

  if (opts.handleSignals !== false) {
    installProcessGuards(app);
    exitOnSignals(stop, app.log);
  }
  // Last: whoever waits for the banner may stop the server at once, and it stops as it should.
  if (opts.banner !== false) printBanner(config, listeningUrl(app), prepared.admin, prepared.demo);
  return { app, db, url: listeningUrl(app), stop };
}

/**
 * Maintenance every server runs on a timer: idempotency keys past their window, samples past their
 * retention. A failure is logged and tried again next time.
 */
function purgeExpiredRows(db: Database, log: Pick<pino.Logger, 'warn'>): void {
  purgeExpiredKeys(db).catch((err: unknown) => log.warn({ err }, 'purging expired idempotency keys failed'));
  purgeExpiredSamples(db).catch((err: unknown) => log.warn({ err }, 'purging expired samples failed'));
  purgeEndedSessions(db).catch((err: unknown) => log.warn({ err }, 'purging ended console sessions failed'));
}

/**
 * `leadgate worker`: the dispatcher alone, beside servers started with LEADGATE_DISPATCHER=0, so
 * sending scales apart from receiving. SIGTERM/SIGINT finish the round in progress, then exit 0.
 */
export async function startWorker(config: Config): Promise<{ stop(): Promise<void> }> {
  const log = pino({ level: config.logLevel });
  const { db, close } = await openDatabase(config, (err) => log.warn({ err }, 'database connection failed'));
  try {
    await whenDatabaseAnswers(() => migrate(db));
  } catch (err) {
    await close();
    throw err;
  }
  const dispatcher = createDispatcher(db, config.automations, log);
  const metaFetcher = createMetaFetcher(
    db,
    metaOptions(config, createSecretBox(resolveSecretsKey(config)), log),
  );
  dispatcher.start();
  metaFetcher.start();
  log.info('leadgate worker started');
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await dispatcher.stop();
      await metaFetcher.stop();
      await close();
    })());
  exitOnSignals(stop, log);
  return { stop };
}

/** The Meta fetcher's settings: it runs wherever the dispatcher runs, on the outbox's retry schedule. */
function metaOptions(
  config: Config,
  secrets: SecretBox,
  log: Pick<pino.Logger, 'info' | 'warn'>,
  metrics?: ReturnType<typeof createMetrics>,
) {
  return {
    secrets,
    graphUrl: config.metaGraphUrl,
    retrySchedule: config.automations.retrySchedule,
    log: { info: (o: object, m: string) => log.info(o, m), warn: (o: object, m: string) => log.warn(o, m) },
    ...(metrics ? { metrics } : {}),
  };
}

/** Stops accepting and waits for in-flight requests; after `graceMs` their connections are closed. */
async function closeWithin(app: FastifyInstance, graceMs: number): Promise<void> {
  const timer = setTimeout(() => {
    app.log.warn({ graceMs }, 'shutdown: requests still in flight, closing their connections');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Nothing ends the process silently. A rejected promise nobody handled is a bug in one request's
 * work, not in the process's state: it is logged and the process goes on. An exception that
 * reached the top leaves state unknown: it is logged and the process exits 1, for its supervisor
 * to restart it (the database holds every acknowledged delivery).
 */
function installProcessGuards(app: FastifyInstance): void {
  process.on('unhandledRejection', (reason) => {
    app.log.error({ err: reason }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (err, origin) => {
    app.log.fatal({ err, origin }, 'uncaught exception: exiting');
    process.exit(1);
  });
}

function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (address && typeof address === 'object') {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }
  return String(address);
}
