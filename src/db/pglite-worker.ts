// The embedded database's own thread (pglite-thread.ts starts it): PGlite, with the prepared
// statements of pglite.ts, answering the server's thread's calls one message each. Nothing else
// runs here, so PostgreSQL's work never holds the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { LIMITS } from '../limits.ts';
import type { Queryable } from './database.ts';
import { keepReturningFreedMemory } from './freed-memory.ts';
import { createPgliteDb, type PglitePlace } from './pglite.ts';
import type { Reply, Request } from './pglite-thread.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');

// Before PGlite starts, so the memory its WebAssembly's compilation frees goes back too; from this
// thread, so the time a trim takes is never the server's event loop's (docs/decisions/0034).
const place = workerData as PglitePlace;
if (place.returnsMemory !== false) {
  await keepReturningFreedMemory({
    everyMs: LIMITS.embeddedTrimMs,
    checkMs: LIMITS.embeddedTrimCheckMs,
    grownBytes: LIMITS.embeddedTrimGrownMb * 1024 * 1024,
    mapAtLeastBytes: LIMITS.embeddedMapAtLeastBytes,
  });
}
const db = await createPgliteDb(place);

/** An open transaction: its statement runner, and how the server's thread ends it. */
interface Open {
  tx: Queryable;
  end: (commit: boolean) => void;
}
/**
 * Transactions by the id the server's thread gave them, from their 'begin' on: their statements
 * may come right behind it, before PGlite has begun them (it waits for the statement running), and
 * wait here for that.
 */
const open = new Map<number, Promise<Open>>();
/** A transaction's end that is not a commit: thrown inside it, so PGlite rolls it back. */
const ROLLBACK = Symbol('rollback');

const reply = (message: Reply) => port.postMessage(message);
const answer = (id: number, work: Promise<unknown>) =>
  work.then(
    (ok) => reply({ id, ok }),
    (err: unknown) => reply({ id, err: errorFields(err) }),
  );

/** How each open transaction ends: resolved on commit, rejected with ROLLBACK or a failure. */
const ending = new Map<number, Promise<void>>();

port.on('message', (m: Request) => {
  switch (m.op) {
    case 'query': {
      if (m.tx === undefined) return void answer(m.id, db.query(m.sql, m.params));
      const t = open.get(m.tx);
      if (!t) return reply({ id: m.id, err: { message: `no open transaction ${m.tx}` } });
      return void answer(
        m.id,
        t.then((o) => o.tx.query(m.sql, m.params)),
      );
    }
    case 'begin': {
      // Answered once the transaction has begun (or failed to); its end is answered by 'end'.
      let opens: (o: Open) => void = () => undefined;
      let cannotOpen: (err: unknown) => void = () => undefined;
      const opened = new Promise<Open>((resolve, reject) => {
        opens = resolve;
        cannotOpen = reject;
      });
      opened.catch(() => undefined); // its statements and the 'begin' itself are told
      open.set(m.tx, opened);
      let started = false;
      const done = db.withTransaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            started = true;
            opens({ tx, end: (commit) => (commit ? resolve() : reject(ROLLBACK)) });
            reply({ id: m.id, ok: m.tx });
          }),
      );
      ending.set(m.tx, done);
      done
        .catch((err: unknown) => {
          if (started) return;
          ending.delete(m.tx);
          cannotOpen(err);
          reply({ id: m.id, err: errorFields(err) });
        })
        .finally(() => open.delete(m.tx));
      return;
    }
    case 'end': {
      const t = open.get(m.tx);
      const done = ending.get(m.tx);
      if (!t || !done) return reply({ id: m.id, err: { message: `no open transaction ${m.tx}` } });
      ending.delete(m.tx);
      const ended = t.then((o) => {
        o.end(m.commit);
        return done.then(
          () => null,
          (err: unknown) => {
            if (err === ROLLBACK) return null;
            throw err;
          },
        );
      });
      return void answer(m.id, ended);
    }
    case 'close':
      return void answer(m.id, db.close());
  }
});

/** An error as plain fields (its message, SQLSTATE, constraint, detail …) to cross to the other thread. */
function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: Record<string, unknown> = { message: err.message, name: err.name };
  for (const [k, v] of Object.entries(err)) if (v === null || typeof v !== 'object') fields[k] = v;
  return fields;
}

reply({ id: 0, ok: 'ready' });
