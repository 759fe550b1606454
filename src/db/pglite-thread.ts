import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LIMITS } from '../limits.ts';
import { transactionStatements, type Database, type QueryResult } from './database.ts';
import type { PglitePlace } from './pglite.ts';

/** A call to the embedded database's thread (pglite-worker.ts). */
export type Request =
  | { id: number; op: 'query'; sql: string; params?: readonly unknown[]; tx?: number }
  | { id: number; op: 'begin'; tx: number }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

/** Its answer: a result, or an error's fields (message, SQLSTATE `code`, constraint, detail …). */
export type Reply = { id: number; ok: unknown } | { id: number; err: Record<string, unknown> };

/**
 * Embedded PGlite in a thread of its own, in the place given (pglite.ts). PGlite
 * is PostgreSQL compiled to WebAssembly: in the server's thread, its statements (more than half of
 * that thread's time under load) and its upkeep's VACUUMs held every request meanwhile; in its own
 * thread they run beside HTTP, mapping and the dispatcher, on the machine's other core. Each call
 * is one message each way; a transaction is begun, used and ended by messages, and PGlite (one
 * connection) holds every other statement until it ends, as before. The thread keeps the process
 * alive only while a call is waiting for it.
 */
export async function createPgliteThreadDb(place: PglitePlace): Promise<Database> {
  const worker = startThread(place);
  type Waiter = { resolve: (value: unknown) => void; reject: (err: Error) => void };
  const waiting = new Map<number, Waiter>();
  let failed: Error | null = null;
  let nextId = 0;
  let nextTx = 0;

  const settle = (id: number, how: (w: Waiter) => void) => {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (waiting.size === 0) worker.unref();
    how(w);
  };
  const failAll = (err: Error) => {
    failed ??= err;
    for (const id of [...waiting.keys()]) settle(id, (w) => w.reject(err));
  };
  worker.on('message', (r: Reply) =>
    settle(r.id, (w) => ('err' in r ? w.reject(toError(r.err)) : w.resolve(r.ok))),
  );
  worker.on('error', failAll);
  worker.on('exit', (code) =>
    failAll(new Error(`the embedded database's thread stopped (exit code ${code})`)),
  );

  const call = (request: Request): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (failed) return reject(failed);
      if (waiting.size === 0) worker.ref();
      waiting.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  const id = () => ++nextId;

  // The thread says 'ready' (call 0) once PGlite has started, or fails.
  await new Promise((resolve, reject) => {
    worker.ref();
    waiting.set(0, { resolve, reject });
  });

  const query = <T>(sql: string, params?: readonly unknown[], tx?: number) =>
    call({ id: id(), op: 'query', sql, ...(params ? { params } : {}), ...(tx ? { tx } : {}) }) as Promise<
      QueryResult<T>
    >;

  return {
    kind: 'pglite',
    query: (sql, params) => query(sql, params),
    async withTransaction(fn) {
      // The transaction holds PGlite's one connection from its begin to its end, so no turn of
      // this thread's event loop is spent on what need not wait: its first statements follow its
      // begin at once, and statements sent together go to the thread together.
      const tx = ++nextTx;
      const begun = call({ id: id(), op: 'begin', tx });
      begun.catch(() => undefined); // awaited below; meanwhile its statements fail with it
      const statements = transactionStatements((sql, params) => query(sql, params, tx), {
        oneAtATime: false,
      });
      let result;
      try {
        result = await fn(statements.tx).finally(statements.end);
        await begun;
      } catch (err) {
        await call({ id: id(), op: 'end', tx, commit: false }).catch(() => undefined);
        throw err;
      }
      await call({ id: id(), op: 'end', tx, commit: true });
      return result;
    },
    async close() {
      if (!failed) await call({ id: id(), op: 'close' });
      await worker.terminate();
    },
  };
}

/**
 * The thread, running pglite-worker.js beside this file; from src/ (tests, tsx) its TypeScript
 * goes through tsx's loader, registered in the thread first, as the caller's does.
 */
function startThread(place: PglitePlace): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./pglite-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  // The thread's own JavaScript is little (messages, PGlite's result parsing): a small young
  // generation holds it, where V8's default lets the process's memory grow for nothing.
  const options = {
    workerData: place,
    resourceLimits: { maxYoungGenerationSizeMb: LIMITS.embeddedThreadYoungMb },
  };
  if (!fromSource) return new Worker(entry, options);
  const tsx = JSON.stringify(tsxLoaderApi());
  const code = `import(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(code, { ...options, eval: true });
}

/** Where tsx's ESM loader API is (its package's export `tsx/esm/api`), as a file URL. */
function tsxLoaderApi(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    // Where import.meta.resolve is missing (a test runner's module runner), the export map says.
    const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      exports: Record<string, { import: { default: string } }>;
    };
    return new URL(pkg.exports['./esm/api']?.import.default ?? '', pathToFileURL(manifest)).href;
  }
}

/** An error from the other thread as an Error again, its fields (the SQLSTATE `code` …) on it. */
function toError(fields: Record<string, unknown>): Error {
  const { message, name, ...rest } = fields;
  const err = Object.assign(new Error(String(message)), rest);
  if (typeof name === 'string') err.name = name;
  return err;
}
