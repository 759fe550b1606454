// The embedded database's own thread (pglite-thread.ts starts it): PGlite, with the prepared
// statements of pglite.ts, answering the server's thread's calls one message each. Nothing else
// runs here, so PostgreSQL's work never holds the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import type { Queryable } from './database.ts';
import { createPgliteDb } from './pglite.ts';
import type { Reply, Request } from './pglite-thread.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');

const db = await createPgliteDb((workerData as { dir: string | undefined }).dir);

/** Open transactions by id: the statement runner, and how the server's thread ends it. */
const open = new Map<number, { tx: Queryable; end: (commit: boolean) => void }>();
/** A transaction's end that is not a commit: thrown inside it, so PGlite rolls it back. */
const ROLLBACK = Symbol('rollback');

const reply = (message: Reply) => port.postMessage(message);
const answer = (id: number, work: Promise<unknown>) =>
  work.then(
    (ok) => reply({ id, ok }),
    (err: unknown) => reply({ id, err: errorFields(err) }),
  );

let nextTx = 0;
/** How each open transaction ends: resolved on commit, rejected with ROLLBACK or a failure. */
const ending = new Map<number, Promise<void>>();

port.on('message', (m: Request) => {
  switch (m.op) {
    case 'query': {
      const runner = m.tx === undefined ? db : open.get(m.tx)?.tx;
      if (!runner) return reply({ id: m.id, err: { message: `no open transaction ${m.tx}` } });
      return void answer(m.id, runner.query(m.sql, m.params));
    }
    case 'begin': {
      // Answered from inside the transaction once it has begun; its end is answered by 'end'.
      const txId = ++nextTx;
      let begun = false;
      const done = db.withTransaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            begun = true;
            open.set(txId, { tx, end: (commit) => (commit ? resolve() : reject(ROLLBACK)) });
            reply({ id: m.id, ok: txId });
          }),
      );
      ending.set(txId, done);
      done
        .catch((err: unknown) => {
          if (begun) return;
          ending.delete(txId);
          reply({ id: m.id, err: errorFields(err) });
        })
        .finally(() => open.delete(txId));
      return;
    }
    case 'end': {
      const t = open.get(m.tx);
      const done = ending.get(m.tx);
      if (!t || !done) return reply({ id: m.id, err: { message: `no open transaction ${m.tx}` } });
      ending.delete(m.tx);
      t.end(m.commit);
      const ended = done.then(
        () => null,
        (err: unknown) => {
          if (err === ROLLBACK) return null;
          throw err;
        },
      );
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
