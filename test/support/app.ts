import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.ts';
import type { Database } from '../../src/db/index.ts';
import { maintainTables } from '../../src/db/maintenance.ts';
import { createAgent } from '../../src/admin/agent-repository.ts';
import { createSource, findSourcesByTokenHash } from '../../src/sources/source-repository.ts';
import { createSecretBox } from '../../src/sources/secrets.ts';
import { hashToken } from '../../src/sources/tokens.ts';
import { createTestDb, type TestDb } from './db.ts';
import { faultyDb, type FaultyDb } from './faulty-db.ts';

export const ADMIN_KEY = 'test-admin-key-0123456789';

/** The installation key test apps seal the sources' secrets with. */
export const TEST_SECRETS = createSecretBox('test-secrets-key-0123456789abcdef-0123456789');

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  testDb: TestDb;
  /** Every log line the app wrote, raw. */
  logs: string[];
  close(): Promise<void>;
}

export async function createTestApp(
  opts: {
    rateLimit?: { rps: number; burst: number };
    db?: Database;
    testDb?: TestDb;
    maxEventLoopDelayMs?: number;
    allowPrivateDestinations?: boolean;
    sms?: AppDeps['sms'];
    trustProxy?: AppDeps['trustProxy'];
    requestTimeoutMs?: number;
    /** Told when an envelope queued Meta leads (a test's fetcher). */
    metaQueued?: () => void;
    /** `PUBLIC_BASE_URL`'s value; http://127.0.0.1:3000/v1 unless a test is about another. */
    publicBaseUrl?: string;
    /** `debug` unless a test is about another level. */
    logLevel?: string;
    /**
     * The table upkeep a server runs (db/maintenance.ts: statistics as tables grow, vacuums where
     * nothing else does), for tests that write thousands of rows as a server would.
     */
    upkeep?: boolean;
  } = {},
): Promise<TestApp> {
  const testDb = opts.testDb ?? (await createTestDb());
  const db = opts.db ?? testDb.db;
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const app = await buildApp({
    db,
    adminApiKey: ADMIN_KEY,
    secrets: TEST_SECRETS,
    ...(opts.metaQueued ? { metaQueued: opts.metaQueued } : {}),
    publicBaseUrl: opts.publicBaseUrl ?? 'http://127.0.0.1:3000/v1',
    rateLimit: opts.rateLimit ?? { rps: 0, burst: 1 },
    logLevel: opts.logLevel ?? 'debug',
    logStream,
    // Load shedding on event-loop delay is off unless a test asks for it (test/overload.test.ts):
    // requests injected in-process into an embedded database can run for a second without the
    // event loop turning, which the plugin reads as infinite delay and answers 503.
    maxEventLoopDelayMs: opts.maxEventLoopDelayMs ?? 0,
    allowPrivateDestinations: opts.allowPrivateDestinations ?? true,
    ...(opts.sms ? { sms: opts.sms } : {}),
    ...(opts.trustProxy !== undefined ? { trustProxy: opts.trustProxy } : {}),
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
  });
  await app.ready();
  const stopUpkeep = opts.upkeep ? await maintainTables(db, app.log) : () => undefined;
  return {
    app,
    db,
    testDb,
    logs,
    async close() {
      stopUpkeep();
      await app.close();
      if (!opts.testDb) await testDb.cleanup();
    },
  };
}

/**
 * A test app over a fresh database wrapped by `faultyDb`, so a test sees which statements reach the
 * database (`faulty.state.seen`) or makes some fail, listening on a real port (`url`) for parallel
 * HTTP. `close` stops the app and drops the database.
 */
export async function watchedTestApp(
  opts: {
    /** Writes what the database holds before the app starts (an installation being upgraded). */
    before?: (db: Database) => Promise<void>;
  } = {},
): Promise<{
  t: TestApp;
  faulty: FaultyDb;
  url: string;
  close(): Promise<void>;
}> {
  const testDb = await createTestDb();
  await opts.before?.(testDb.db);
  const faulty = faultyDb(testDb.db);
  const t = await createTestApp({ db: faulty.db, testDb });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    t,
    faulty,
    url,
    async close() {
      await t.close();
      await testDb.cleanup();
    },
  };
}

/** An agent with one active lead source; returns the token in full. */
export async function seedSource(
  db: Database,
  agentName = 'Agent Smith',
  timezone = 'America/Chicago',
): Promise<{ agent_id: string; source_id: string; token: string }> {
  const agent = await createAgent(db, { name: agentName, timezone });
  const { source, token } = await createSource(db, agent.agent_id, `${agentName} source`);
  return { agent_id: agent.agent_id, source_id: source.source_id, token };
}

/** The active source a token names, or null. */
export async function activeSourceOf(db: Database, token: string) {
  const hash = hashToken(token);
  const owner = (await findSourcesByTokenHash(db, [hash])).get(hash);
  return owner?.active ? owner.source : null;
}

/** One admin API request through `app.inject`, with the test key; `body` is sent as JSON. */
export function adminInject(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return app.inject({
    method,
    url: `/v1/admin${url}`,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** Adds a webhook destination to a source through the admin API; returns the raw answer. */
export function addDestination(
  app: FastifyInstance,
  sourceId: string,
  destination: { kind?: 'partner_sync' | 'analytics'; url: string; events?: string[] },
) {
  return adminInject(app, 'POST', `/sources/${sourceId}/destinations`, {
    kind: 'partner_sync',
    ...destination,
  });
}
