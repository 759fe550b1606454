import { LIMITS } from '../limits.ts';
import type { Database } from './database.ts';
import { gathered } from './gathered.ts';
import type { TwoForms } from './statement.ts';

/**
 * A call waiting for its statement: its parameters, in the statement's order (`one.values(record)`,
 * or filled by slot), and what no other call of its statement may claim.
 */
export interface Call {
  params: unknown[];
  claims: string[];
}

/**
 * Calls made at one moment on `db` go together (gathered.ts; LIMITS.sharedStatements round trips
 * at once on PostgreSQL, one on the embedded database): one call alone by the statement's one-row
 * form, several by its many-row form, except a call claiming what another of them claims (a key, a
 * phone, a lead), which goes by itself. When the many-row statement fails for any reason, each of
 * its calls is made by itself, so one call's fault is only its own. Each call gets its row
 * (undefined if the statement returned none for it) or its own error.
 */
export function together<R, N extends string>(
  db: Database,
  statement: TwoForms<N>,
): (call: Call) => Promise<R | undefined> {
  const opts = { concurrency: db.kind === 'postgres' ? LIMITS.sharedStatements : 1 };
  type Result = { ok: R | undefined } | { err: unknown };
  const one = async (c: Call): Promise<Result> => {
    try {
      return { ok: (await db.query<R>(statement.one.text, c.params)).rows[0] };
    } catch (err) {
      return { err };
    }
  };
  const many = async (cs: Call[]): Promise<Result[]> => {
    try {
      const { rows } = await db.query<R & { n: number }>(
        statement.many.text,
        statement.many.values(cs.map((c) => c.params)),
      );
      const byN = new Map(rows.map((r) => [Number(r.n), r]));
      return cs.map((_, i) => ({ ok: byN.get(i + 1) }));
    } catch {
      return Promise.all(cs.map(one));
    }
  };
  const gather = gathered<Call, Result>(async (calls) => {
    const shared: Call[] = [];
    const alone: Call[] = [];
    const taken = new Set<string>();
    for (const c of calls) {
      if (c.claims.some((x) => taken.has(x))) alone.push(c);
      else {
        shared.push(c);
        for (const x of c.claims) taken.add(x);
      }
    }
    const [a, b] = await Promise.all([
      shared.length === 1 ? Promise.all(shared.map(one)) : many(shared),
      Promise.all(alone.map(one)),
    ]);
    const results = new Map<Call, Result>();
    shared.forEach((c, i) => results.set(c, a[i] as Result));
    alone.forEach((c, i) => results.set(c, b[i] as Result));
    return calls.map((c) => results.get(c) as Result);
  }, opts);
  return async (call) => {
    const result = await gather(call);
    if ('err' in result) throw result.err;
    return result.ok;
  };
}
