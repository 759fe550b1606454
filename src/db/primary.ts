import type pg from 'pg';
import type { TargetSessionAttrs } from '../database-url.ts';
import { NoPrimaryError } from './database.ts';

/**
 * Which of a URL's hosts the gateway writes to, with a pool per host. The host found is kept
 * until one of its connections fails (`lost`); the next call then asks every host at once. Under
 * `any` the first host in the URL's order that answers is taken, as libpq takes it; under a target
 * that only one host meets, the first to answer as it requires, so a dead machine's connect
 * timeout never delays the new primary. Under `read-write` or `primary` each new connection is
 * checked once before it is used: one that lands on a standby, or on a primary since demoted, is
 * closed and the hosts are asked again. While none answers, calls are refused with NoPrimaryError
 * for `retryMs` before the hosts are asked again, so an outage costs each host a few connections a
 * second, not one per request.
 */
export interface Primary {
  /** A connection to the primary, and the pool it came from (to be given to `lost` if it fails). */
  connect(): Promise<{ client: pg.PoolClient; pool: pg.Pool }>;
  /** A connection of `pool` failed as a moved primary's would: ask the hosts again. */
  lost(pool: pg.Pool): void;
}

/** What a server says when asked whether it takes writes (libpq asks the same). */
const CHECKS: Record<Exclude<TargetSessionAttrs, 'any'>, string> = {
  'read-write': "SELECT current_setting('transaction_read_only') = 'off' AS ok",
  primary: 'SELECT NOT pg_is_in_recovery() AS ok',
};

interface Host {
  pool: pg.Pool;
  /** host:port, for the errors that say why a host was passed over. */
  name: string;
}

export function createPrimary(
  pools: readonly Host[],
  opts: { target: TargetSessionAttrs; retryMs: number; now?: () => number },
): Primary {
  const now = opts.now ?? Date.now;
  const check = opts.target === 'any' ? undefined : CHECKS[opts.target];
  const checked = new WeakSet<pg.PoolClient>();
  const only = pools.length === 1 && !check ? pools[0] : undefined;
  let current = only;
  let finding: Promise<Host> | undefined;
  let missed: { at: number; err: NoPrimaryError } | undefined;

  const connectTo = async ({ pool, name }: Host): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    if (!check || checked.has(client)) return client;
    let ok = false;
    try {
      ok = (await client.query<{ ok: boolean }>(check)).rows[0]?.ok === true;
    } finally {
      if (ok) checked.add(client);
      else client.release(true);
    }
    if (!ok) throw new NoPrimaryError(`${name} does not take writes (a standby, or read-only)`);
    return client;
  };

  const find = (): Promise<Host> => {
    if (finding) return finding;
    if (missed && now() - missed.at < opts.retryMs) return Promise.reject(missed.err);
    const answers = pools.map(async (host) => {
      try {
        (await connectTo(host)).release();
        return host;
      } catch (err) {
        throw err instanceof NoPrimaryError
          ? err
          : new NoPrimaryError(`${host.name}: ${(err as Error).message}`);
      }
    });
    finding = (check ? Promise.any(answers) : firstInOrder(answers))
      .then(
        (host) => {
          current = host;
          missed = undefined;
          return host;
        },
        (err: AggregateError) => {
          const why = (err.errors as Error[]).map((e) => e.message).join('; ');
          missed = {
            at: now(),
            err: new NoPrimaryError(`${check ? 'no host takes writes' : 'no host answers'}: ${why}`),
          };
          throw missed.err;
        },
      )
      .finally(() => (finding = undefined));
    return finding;
  };

  const lost = (pool: pg.Pool) => {
    if (current?.pool === pool && !only) current = undefined;
  };
  return {
    async connect() {
      const host = current ?? (await find());
      try {
        return { client: await connectTo(host), pool: host.pool };
      } catch (err) {
        lost(host.pool);
        throw err;
      }
    },
    lost,
  };
}

/** The first of `answers` in their order that resolves (each already under way). */
async function firstInOrder<T>(answers: Array<Promise<T>>): Promise<T> {
  for (const answer of answers) answer.catch(() => undefined); // the later ones may never be awaited
  const errors: unknown[] = [];
  for (const answer of answers) {
    try {
      return await answer;
    } catch (err) {
      errors.push(err);
    }
  }
  throw new AggregateError(errors);
}
