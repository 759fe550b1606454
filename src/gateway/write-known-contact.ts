import { LIMITS } from '../config.ts';
import { isPgError } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import type { Database } from '../db/index.ts';
import { placeholder, recordColumns, recordField, setList, type ParamRef } from '../db/row-shape.ts';
import { together, type TwoForms } from '../db/together.ts';
import { fingerprintContact, type ContactFingerprint } from '../idempotency/fingerprint.ts';
import { TAKE_OVER_EXPIRED_KEY } from '../idempotency/key-store.ts';
import type { JsonObject } from '../json.ts';
import { contactKeys, keyOwnerSql, keyValue, type ContactKey } from '../leads/contact-keys.ts';
import { LEAD_UPDATE, storedLeadColumns, toStoredLead, updateLeadParams } from '../leads/lead-repository.ts';
import { emptyAgenda, planWrite, type LiveDelivery } from './plan-write.ts';
import { answerForUsedKey, successAnswer, type DeliveryResult } from './result.ts';
import { UNCONFIRMED, type SourceClaim, type Unconfirmed } from './source-directory.ts';
import { isPlainMerge, mergeRowsParams, mergeRowsSql } from './write-merge.ts';
import { isNewContactCandidate } from './write-new-contact.ts';

/**
 * A delivery that may be a repeat contact to merge without a transaction: a plain lead (not a
 * scheduler's event) with no appointment, so the merge touches the stored lead and nothing of its
 * agenda.
 */
export function isKnownContactCandidate(d: LiveDelivery): boolean {
  return isNewContactCandidate(d) && d.agenda === null;
}

/**
 * A repeat contact's merge in two round trips and no transaction held open between them: one
 * statement reads what the merge depends on (the token, the idempotency key, who owns the
 * contact's phone and email, and the stored lead with its row version), the merge is planned
 * (plan-write.ts, as the transaction plans it), and one statement writes it only if the database
 * still agrees: the token current, the key claimed, the contact's new keys free, and the lead's
 * row the version that was read. Otherwise the write undoes itself (`leadgate_lead_changed`, a
 * migration's function) and the answer is null: the locking transaction decides
 * (write-delivery.ts), as it does for anything this path does not take (a contact the database
 * does not know, a merge that would change the agenda, a key in use by a write not yet committed).
 *   - the token or the source changed → UNCONFIRMED, and the gateway asks the database again;
 *   - the idempotency key is used → its replay, or 422 when the contact differs.
 * Reads and writes of merges made at the same moment share statements (db/together.ts).
 */
export async function writeKnownContact(
  db: Database,
  claim: SourceClaim,
  d: LiveDelivery,
): Promise<DeliveryResult | Unconfirmed | null> {
  const { source } = claim;
  const keys = contactKeys(d.lead.fields);
  const phone = keyValue(keys, 'phone');
  const email = keyValue(keys, 'email');
  const fingerprint = fingerprintContact(d.lead.fields);
  const read = await readMany(db, {
    params: [
      claim.tokenHash,
      source.source_id,
      source.revision,
      d.replayKey,
      d.bodyDigest,
      phone,
      email,
      source.agent_id,
    ],
    claims: [],
  });
  if (!read?.authentic) return UNCONFIRMED;
  if (read.used_contact) {
    if (!read.used_response) return null; // not answered yet: the transaction waits for it
    const used = { contact: read.used_contact, response: read.used_response, sameBody: read.used_same_body };
    return answerForUsedKey(used, fingerprint);
  }
  if (!read.version || !read.lead_id) return null;

  const stored = toStoredLead(read);
  const plan = planWrite(source, d, {
    newLeadId: newId(),
    stored,
    agenda: emptyAgenda(d, newId()),
  });
  if (plan.leadId !== stored.lead_id || !isPlainMerge(plan)) return null;
  const newPhone = read.phone_owner ? null : phone;
  const newEmail = read.email_owner ? null : email;
  const params = [
    ...updateLeadParams(source.agent_id, plan.leadId, plan.lead.row),
    read.version,
    ...mergeRowsParams(plan),
    JSON.stringify(successAnswer(plan.result)),
    source.source_id,
    d.replayKey,
    claim.tokenHash,
    source.revision,
    JSON.stringify(fingerprint),
    LIMITS.idempotencyWindowHours,
    d.bodyDigest,
    newPhone,
    newEmail,
  ];
  const claims = [
    `lead ${plan.leadId}`,
    d.replayKey === null ? null : `key ${source.source_id} ${d.replayKey}`,
    newPhone === null ? null : `phone ${source.agent_id} ${newPhone}`,
    newEmail === null ? null : `email ${source.agent_id} ${newEmail}`,
  ].filter((c): c is string => c !== null);
  let outcome: Written | undefined;
  try {
    outcome = await writeMany(db, { params, claims });
  } catch (err) {
    if (isPgError(err) && err.code === LEAD_CHANGED) return null;
    throw err;
  }
  if (!outcome?.authentic) return UNCONFIRMED;
  return outcome.merged ? plan.result : null;
}

/** The SQLSTATE `leadgate_lead_changed()` raises (migrations/0015-lead-changed.sql). */
const LEAD_CHANGED = 'LG409';

interface Read extends Record<string, unknown> {
  authentic: boolean;
  used_contact: ContactFingerprint | null;
  used_response: JsonObject | null;
  used_same_body: boolean;
  phone_owner: string | null;
  email_owner: string | null;
  /** The stored lead's row version (`xmin`), or null when no lead has the contact's keys. */
  version: string | null;
  lead_id: string | null;
}

interface Written {
  authentic: boolean;
  merged: boolean;
}

/**
 * A statement in its two forms (db/together.ts): `sql(rows, at)` gets the rows of `r` (one row,
 * or a `recordsJson` record per call) and `at(alias)`, how a parameter is read beside that alias
 * (`$n`, or the record's `alias.pn`).
 */
function statement(count: number, sql: (rows: string, at: (alias: string) => ParamRef) => string): TwoForms {
  return {
    one: sql('SELECT 1 AS n', () => placeholder),
    many: sql(`SELECT * FROM json_to_recordset($1::json) AS r (${recordColumns(count)})`, recordField),
  };
}

/** A parameter list, named: `ref(alias)(name)` reads parameter `name` beside `alias`. */
function params(list: Array<[string, string]>) {
  const names = list.map(([name]) => name);
  return {
    count: list.length,
    ref:
      (at: (alias: string) => ParamRef) =>
      (name: string, alias = 'r'): string => {
        const i = names.indexOf(name);
        if (i < 0) throw new Error(`no parameter ${name}`);
        return at(alias)(i + 1, list[i]?.[1] ?? 'text');
      },
  };
}

const READ_PARAMS = params([
  ['token_hash', 'text'],
  ['source_id', 'uuid'],
  ['revision', 'integer'],
  ['key', 'text'],
  ['digest', 'text'],
  ['phone', 'text'],
  ['email', 'text'],
  ['agent', 'uuid'],
]);

/**
 * What a merge depends on, read at one moment, no row locked: the token, the idempotency key (and
 * whether the body digest is the one stored with it), the owners of the phone and email keys, and
 * the lead the contact is — the email's owner before the phone's, as the transaction chooses
 * (leads/contact-keys.ts) — with its row version. One row per call (`r.n`). Each lookup is a
 * subquery of its call's record, kept apart by its `LIMIT 1` (each finds one row by its key), so it
 * is an index probe: joined to the records, whose number the planner guesses at 100, the lead was
 * found by hashing the agent's every lead, and the statement cost 0.6 ms at 500 leads and 16 ms at
 * 8,000 (test/gateway-plans.test.ts).
 */
export const MERGE_READ = statement(READ_PARAMS.count, (rows, at) => {
  const p = READ_PARAMS.ref(at);
  const owner = (kind: ContactKey['kind']) => keyOwnerSql(p('agent'), kind, p(kind));
  return `
WITH r AS (${rows})
SELECT r.n,
       EXISTS (SELECT FROM sources s WHERE s.token_hash = ${p('token_hash')} AND s.source_id = ${p('source_id')}
                  AND s.revision = ${p('revision')} AND s.active) AS authentic,
       u.contact AS used_contact, u.response AS used_response, u.same_body IS TRUE AS used_same_body,
       o.phone_owner, o.email_owner, l.version, ${storedLeadColumns('l')}
  FROM r
  LEFT JOIN LATERAL (
    SELECT k.contact, k.response, (k.body_digest = ${p('digest')}) IS TRUE AS same_body
      FROM idempotency_keys k
     WHERE k.agent_id = ${p('agent')} AND k.source_id = ${p('source_id')} AND k.key = ${p('key')}
       AND k.expires_at > now()
     LIMIT 1
  ) u ON true
  CROSS JOIN LATERAL (SELECT ${owner('phone')} AS phone_owner, ${owner('email')} AS email_owner) o
  LEFT JOIN LATERAL (
    SELECT l.xmin::text AS version, ${storedLeadColumns('l')}
      FROM leads l
     WHERE l.agent_id = ${p('agent')} AND l.lead_id = COALESCE(o.email_owner, o.phone_owner)
     LIMIT 1
  ) l ON true`;
});

// updateLeadParams' values first (the agent, the lead, then LEAD_UPDATE's columns), then these.
const WRITE_PARAMS = params([
  ['agent', 'uuid'],
  ['lead', 'uuid'],
  ...LEAD_UPDATE.columns.map((c): [string, string] => [c.name, c.type]),
  ['version', 'text'],
  ['history', 'json'],
  ['messages', 'jsonb'],
  ['response', 'jsonb'],
  ['source_id', 'uuid'],
  ['key', 'text'],
  ['token_hash', 'text'],
  ['revision', 'integer'],
  ['contact', 'jsonb'],
  ['hours', 'integer'],
  ['digest', 'text'],
  ['new_phone', 'text'],
  ['new_email', 'text'],
]);

/**
 * Merges, each written only as a whole and only on what was read. Each sub-statement writes a
 * call's rows only when the ones it reads from did: the token current (`src`), the key claimed
 * (`claimed`, unless the delivery has none), the contact's keys that no lead owned when read
 * (`added`: one taken in the meantime is not), then the lead, if its row is still the version read
 * (`lead`: a row another write changed meanwhile is waited for and then no longer matches); the
 * history lines and outbox messages follow the lead (`w`). A key or contact key written for a call
 * whose lead was not raises `leadgate_lead_changed()`, which undoes the statement. The calls of
 * one statement never share a lead, a key or a contact key (`together`).
 */
export const MERGE_WRITE = statement(WRITE_PARAMS.count, (rows, at) => {
  const p = WRITE_PARAMS.ref(at);
  const expected = (alias: string) =>
    `(${p('new_phone', alias)} IS NOT NULL)::integer + (${p('new_email', alias)} IS NOT NULL)::integer`;
  return `
WITH r AS (${rows}), src AS (
  SELECT r.* FROM r JOIN sources s
    ON s.token_hash = ${p('token_hash')} AND s.source_id = ${p('source_id')} AND s.revision = ${p('revision')}
   AND s.active
), claimed AS (
  INSERT INTO idempotency_keys (agent_id, source_id, key, contact, expires_at, lead_id, response, body_digest)
  SELECT ${p('agent', 'src')}, ${p('source_id', 'src')}, ${p('key', 'src')}, ${p('contact', 'src')},
         now() + make_interval(hours => ${p('hours', 'src')}), ${p('lead', 'src')}, ${p('response', 'src')},
         ${p('digest', 'src')}
    FROM src WHERE ${p('key', 'src')} IS NOT NULL
  ${TAKE_OVER_EXPIRED_KEY}
  RETURNING lead_id
), go AS (
  SELECT src.* FROM src
   WHERE ${p('key', 'src')} IS NULL OR EXISTS (SELECT FROM claimed c WHERE c.lead_id = ${p('lead', 'src')})
), added AS (
  INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
  SELECT ${p('agent', 'go')}, k.kind, k.value, ${p('lead', 'go')}
    FROM go, LATERAL (VALUES ('phone', ${p('new_phone', 'go')}), ('email', ${p('new_email', 'go')})) AS k (kind, value)
   WHERE k.value IS NOT NULL
  ON CONFLICT (agent_id, kind, value) DO NOTHING
  RETURNING lead_id
), lead AS (
  UPDATE leads l SET ${setList(LEAD_UPDATE, 3, at('go'))}, updated_at = now()
    FROM go
   WHERE l.agent_id = ${p('agent', 'go')} AND l.lead_id = ${p('lead', 'go')} AND l.xmin::text = ${p('version', 'go')}
     AND (SELECT count(*) FROM added a WHERE a.lead_id = ${p('lead', 'go')}) = ${expected('go')}
  RETURNING l.lead_id
), w AS (
  SELECT go.* FROM go JOIN lead ON lead.lead_id = ${p('lead', 'go')}
), ${mergeRowsSql({ agent: p('agent', 'w'), history: p('history', 'w'), messages: p('messages', 'w'), from: 'w, ', order: 'w.n, ' })}
SELECT r.n, EXISTS (SELECT FROM src WHERE src.n = r.n) AS authentic, EXISTS (SELECT FROM w WHERE w.n = r.n) AS merged,
       CASE WHEN EXISTS (
         SELECT FROM go
          WHERE NOT EXISTS (SELECT FROM w WHERE w.n = go.n)
            AND (${p('key', 'go')} IS NOT NULL OR EXISTS (SELECT FROM added a WHERE a.lead_id = ${p('lead', 'go')}))
       ) THEN leadgate_lead_changed() END AS undone
  FROM r`;
});

/** Merges read and written at the same moment share their statements (db/together.ts). */
const readMany = together<Read>(MERGE_READ);
const writeMany = together<Written>(MERGE_WRITE);
