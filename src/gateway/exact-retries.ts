import { LIMITS } from '../limits.ts';
import { gathered } from '../db/gathered.ts';
import type { Queryable } from '../db/index.ts';
import { run, sql } from '../db/statement.ts';
import { currentSourceSql } from '../sources/source-repository.ts';
import type { JsonObject } from '../json.ts';
import { createRecent } from './recent.ts';
import type { SourceClaim } from './source-directory.ts';

/** A delivery under the sender's `Idempotency-Key` header, known by its bytes. */
export interface Resend {
  key: string;
  /** idempotency/body-digest.ts */
  digest: string;
}

/**
 * Exact retries: a sender that got no answer (a timeout, a dropped connection, a 503) sends the
 * same bytes again under the same key. Such a resend is answered with the stored response from one
 * short statement — the token checked as every write checks it, the key found unexpired with these
 * bytes — without the body being parsed, mapped or planned again. The statement is only tried for a
 * resend this process has seen use its key (a bounded memory); anything else, and anything the
 * database does not confirm, is delivered the whole way, where the key is found used as before.
 */
export interface ExactRetries {
  /** The stored answer, on the database's word; null: deliver it the whole way. */
  answer(claim: SourceClaim, resend: Resend): Promise<JsonObject | null>;
  /** `resend` used its key (or was replayed on its bytes) at this source. */
  remember(sourceId: string, resend: Resend): void;
}

interface Asked {
  claim: SourceClaim;
  resend: Resend;
}

export function createExactRetries(db: Queryable, opts: { max?: number } = {}): ExactRetries {
  const seen = createRecent(opts.max ?? LIMITS.exactRetriesRemembered);
  const id = (sourceId: string, r: Resend) => `${sourceId} ${r.digest} ${r.key}`;
  // The resends of one event-loop turn (or of one round trip's wait) share the statement.
  const lookup = gathered<Asked, JsonObject | null>(async (asked) => {
    const { rows } = await run<{ n: number; response: JsonObject | null }, ExactRetryParam>(
      db,
      EXACT_RETRIES,
      {
        token_hashes: asked.map((a) => a.claim.tokenHash),
        source_ids: asked.map((a) => a.claim.source.source_id),
        revisions: asked.map((a) => a.claim.source.revision),
        keys: asked.map((a) => a.resend.key),
        digests: asked.map((a) => a.resend.digest),
      },
    );
    const found = new Map(rows.map((r) => [Number(r.n), r.response]));
    return asked.map((_, i) => found.get(i + 1) ?? null);
  });
  return {
    async answer(claim, resend) {
      const known = id(claim.source.source_id, resend);
      if (!seen.has(known)) return null;
      const answer = await lookup({ claim, resend });
      if (!answer) seen.delete(known);
      return answer;
    },
    remember(sourceId, resend) {
      seen.add(id(sourceId, resend));
    },
  };
}

type ExactRetryParam = 'token_hashes' | 'source_ids' | 'revisions' | 'keys' | 'digests';

/**
 * Per resend (numbered n from 1): its stored answer, when its token is current and its key
 * unexpired with its bytes; else null. A subquery per resend, so each is two index lookups
 * whatever the planner thinks of the tables' sizes.
 */
export const EXACT_RETRIES = sql<ExactRetryParam>(
  (p) => `
SELECT r.n,
       (SELECT k.response FROM sources s
          JOIN idempotency_keys k ON k.agent_id = s.agent_id AND k.source_id = s.source_id AND k.key = r.key
         WHERE ${currentSourceSql('s', (name) => `r.${name}`)}
           AND k.body_digest = r.digest AND k.expires_at > now()) AS response
  FROM unnest(${p('token_hashes', 'text[]')}, ${p('source_ids', 'uuid[]')}, ${p('revisions', 'integer[]')},
              ${p('keys', 'text[]')}, ${p('digests', 'text[]')})
       WITH ORDINALITY AS r (token_hash, source_id, revision, key, digest, n)`,
);
