import { APPOINTMENT_ROW, appointmentRow } from '../appointments/appointment-repository.ts';
import { isPgError } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import { together } from '../db/together.ts';
import type { Database } from '../db/index.ts';
import { columnList, recordColumns, recordField, valueExpressions, type RowShape } from '../db/row-shape.ts';
import { LIMITS } from '../config.ts';
import { fingerprintContact, type ContactFingerprint } from '../idempotency/fingerprint.ts';
import { TAKE_OVER_EXPIRED_KEY } from '../idempotency/key-store.ts';
import type { JsonObject } from '../json.ts';
import { contactKeys, keyValue } from '../leads/contact-keys.ts';
import { HISTORY_ROW, LEAD_ROW, historyRow, leadRow } from '../leads/lead-repository.ts';
import { emptyAgenda, planWrite, type LiveDelivery, type WritePlan } from './plan-write.ts';
import { answerForUsedKey, successAnswer, type DeliveryResult } from './result.ts';
import { UNCONFIRMED, type Unconfirmed, type SourceClaim } from './source-directory.ts';

/**
 * A plain lead delivery (not a scheduler's event) that may be a new contact: the one-statement
 * path is tried first. Scheduler events name appointments by their invitee and go the general way.
 */
export function isNewContactCandidate(d: LiveDelivery): boolean {
  return d.scheduler === null && d.externalId === null && !d.leadIfNew && d.agenda?.kind !== 'cancel';
}

/**
 * Writes a new contact's delivery in one statement — one round trip, and its own transaction
 * (durable when it returns), shared with the new contacts that arrive at the same moment
 * (`writeNewContacts`): the token check (still active, the source at the revision the request
 * mapped with), the idempotency key with the answer to replay, the contact's keys, the lead, its
 * appointment, its history line and its outbox messages. The statement writes nothing unless the
 * database confirms what the plan assumed; then it tells why:
 *   - the token or the source changed → UNCONFIRMED, and the gateway asks the database again;
 *   - the idempotency key is used → its replay, or 422 when the contact differs;
 *   - a lead has the phone or email already (a merge), or another delivery is writing the same
 *     contact or key right now → null: the general transaction decides (write-delivery.ts).
 */
export async function writeNewContact(
  db: Database,
  claim: SourceClaim,
  d: LiveDelivery,
): Promise<DeliveryResult | Unconfirmed | null> {
  const plan = planWrite(claim.source, d, {
    newLeadId: newId(),
    stored: null,
    agenda: emptyAgenda(d, newId()),
  });
  const fingerprint = fingerprintContact(d.lead.fields);
  const params = values(claim, d, plan, fingerprint);
  let outcome: Outcome | undefined;
  try {
    outcome = await writeNewContacts(db, { params, claims: claimedValues(claim, params) });
  } catch (err) {
    // Another delivery committed the same phone or email while this statement ran: a merge.
    if (isPgError(err) && err.code === '23505' && err.constraint === 'lead_contacts_pkey') return null;
    throw err;
  }
  if (!outcome?.authentic) return UNCONFIRMED;
  if (outcome.created) return plan.result;
  if (outcome.used_contact) {
    return answerForUsedKey(
      { contact: outcome.used_contact, response: outcome.used_response, sameBody: outcome.used_same_body },
      fingerprint,
    );
  }
  return null;
}

interface Outcome {
  authentic: boolean;
  created: boolean;
  used_contact: ContactFingerprint | null;
  used_response: JsonObject | null;
  used_same_body: boolean;
}

/** What a write claims that no other write of the same statement may: key, phone, email. */
function claimedValues(claim: SourceClaim, params: unknown[]): string[] {
  const at = (name: string) => params[CHECKS.indexOf(name)];
  const { agent_id, source_id } = claim.source;
  return [
    at('key') === null ? null : `key ${source_id} ${String(at('key'))}`,
    at('phone') === null ? null : `phone ${agent_id} ${String(at('phone'))}`,
    at('email') === null ? null : `email ${agent_id} ${String(at('email'))}`,
  ].filter((c): c is string => c !== null);
}

// The parameters, numbered once at start: the checks', then each row's in its shape's order.
const CHECKS = [
  'token_hash',
  'source_id',
  'revision',
  'key',
  'contact',
  'response',
  'hours',
  'phone',
  'email',
  'digest',
];
const TYPES = ['text', 'uuid', 'integer', 'text', 'jsonb', 'jsonb', 'integer', 'text', 'text', 'text'];
const p = (name: string) => `$${CHECKS.indexOf(name) + 1}::${TYPES[CHECKS.indexOf(name)]}`;
const rowStart = (() => {
  let next = CHECKS.length + 1;
  return (shape: RowShape) => {
    const first = next;
    next += shape.columns.length;
    return first;
  };
})();
const LEAD_AT = rowStart(LEAD_ROW);
const APPOINTMENT_AT = rowStart(APPOINTMENT_ROW);
const HISTORY_AT = rowStart(HISTORY_ROW);
const MESSAGES = `$${HISTORY_AT + HISTORY_ROW.columns.length}::jsonb`;
const APPOINTMENT_ID = `$${APPOINTMENT_AT + 1}::uuid`;

/**
 * Each sub-statement writes only when the ones it reads from did: nothing at all unless the token
 * is current (`src`), the key is unused and the contact unknown (`go`) and the key was claimed (a
 * key committed by another delivery a moment ago is not seen by this statement, so the insert
 * waits for it and then yields). A contact committed by another delivery a moment ago makes the
 * contact-key insert fail, and the whole statement with it.
 */
const NEW_CONTACT_SQL = `
WITH src AS (
  SELECT agent_id, source_id FROM sources
   WHERE token_hash = ${p('token_hash')} AND source_id = ${p('source_id')} AND revision = ${p('revision')} AND active
), used AS (
  SELECT k.contact, k.response, (k.body_digest = ${p('digest')}) IS TRUE AS same_body
    FROM idempotency_keys k JOIN src USING (agent_id, source_id)
   WHERE k.key = ${p('key')} AND k.expires_at > now()
), known AS (
  SELECT 1 FROM lead_contacts c JOIN src USING (agent_id) WHERE c.kind = 'phone' AND c.value = ${p('phone')}
  UNION ALL
  SELECT 1 FROM lead_contacts c JOIN src USING (agent_id) WHERE c.kind = 'email' AND c.value = ${p('email')}
), go AS (
  SELECT agent_id, source_id FROM src WHERE NOT EXISTS (SELECT FROM used) AND NOT EXISTS (SELECT FROM known)
), claimed AS (
  INSERT INTO idempotency_keys (agent_id, source_id, key, contact, expires_at, lead_id, response, body_digest)
  SELECT agent_id, source_id, ${p('key')}, ${p('contact')}, now() + make_interval(hours => ${p('hours')}),
         $${LEAD_AT + 1}::uuid, ${p('response')}, ${p('digest')}
    FROM go WHERE ${p('key')} IS NOT NULL
  ${TAKE_OVER_EXPIRED_KEY}
  RETURNING 1
), lead AS (
  INSERT INTO leads (${columnList(LEAD_ROW)})
  SELECT ${valueExpressions(LEAD_ROW, LEAD_AT).join(', ')}
    FROM go WHERE ${p('key')} IS NULL OR EXISTS (SELECT FROM claimed)
  RETURNING agent_id, lead_id
), contact_keys AS (
  INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
  SELECT lead.agent_id, k.kind, k.value, lead.lead_id
    FROM lead, (VALUES ('phone', ${p('phone')}), ('email', ${p('email')})) AS k (kind, value)
   WHERE k.value IS NOT NULL
), appointment AS (
  INSERT INTO appointments (${columnList(APPOINTMENT_ROW)})
  SELECT ${valueExpressions(APPOINTMENT_ROW, APPOINTMENT_AT).join(', ')}
    FROM lead WHERE ${APPOINTMENT_ID} IS NOT NULL
), history AS (
  INSERT INTO lead_history (${columnList(HISTORY_ROW)})
  SELECT ${valueExpressions(HISTORY_ROW, HISTORY_AT).join(', ')} FROM lead
), messages AS (
  INSERT INTO outbox (agent_id, message_id, topic, lead_id, payload)
  SELECT lead.agent_id, (m.message ->> 'message_id')::uuid, m.message ->> 'topic', lead.lead_id, m.message -> 'payload'
    FROM lead, jsonb_array_elements(${MESSAGES}) WITH ORDINALITY AS m (message, n)
   ORDER BY m.n
)
SELECT EXISTS (SELECT FROM src) AS authentic, EXISTS (SELECT FROM lead) AS created,
       (SELECT contact FROM used) AS used_contact, (SELECT response FROM used) AS used_response,
       (SELECT same_body FROM used) IS TRUE AS used_same_body`;

const PARAMS = HISTORY_AT + HISTORY_ROW.columns.length;

// A write's parameters, read from its record (alias `r`, or `w` once its lead is written).
const r = recordField('r');
const src = recordField('src');
const go = recordField('go');
const w = recordField('w');
const q = (name: string, ref = r) => ref(CHECKS.indexOf(name) + 1, TYPES[CHECKS.indexOf(name)] ?? 'text');
const LEAD_ID = (ref: typeof r) => ref(LEAD_AT + 1, 'uuid');

/**
 * NEW_CONTACT_SQL for many writes at once, each its own record (numbered `n`), each checked and
 * written as that statement does one: a write whose checks fail writes nothing, the others are
 * written. One outcome row per write. Each lookup is correlated with its record, so it is an index
 * probe whatever the planner's statistics say (joined to the records afterwards, a lookup read the
 * agent's every key and cost milliseconds a row). A lone write still takes NEW_CONTACT_SQL, a
 * quarter quicker than this with one record.
 */
export const NEW_CONTACTS_SQL = `
WITH r AS (
  SELECT * FROM json_to_recordset($1::json)
    AS r (${recordColumns(PARAMS)})
), src AS (
  SELECT r.*, s.agent_id AS src_agent_id FROM r JOIN sources s
    ON s.token_hash = ${q('token_hash')} AND s.source_id = ${q('source_id')} AND s.revision = ${q('revision')}
   AND s.active
), used AS (
  SELECT src.n, k.contact, k.response, (k.body_digest = ${q('digest', src)}) IS TRUE AS same_body
    FROM src JOIN idempotency_keys k
      ON k.agent_id = src.src_agent_id AND k.source_id = ${q('source_id', src)} AND k.key = ${q('key', src)}
   WHERE k.expires_at > now()
), go AS (
  SELECT src.* FROM src
   WHERE NOT EXISTS (SELECT FROM used WHERE used.n = src.n)
     AND NOT EXISTS (SELECT FROM lead_contacts c
                      WHERE c.agent_id = src.src_agent_id AND c.kind = 'phone' AND c.value = ${q('phone', src)})
     AND NOT EXISTS (SELECT FROM lead_contacts c
                      WHERE c.agent_id = src.src_agent_id AND c.kind = 'email' AND c.value = ${q('email', src)})
), claimed AS (
  INSERT INTO idempotency_keys (agent_id, source_id, key, contact, expires_at, lead_id, response, body_digest)
  SELECT go.src_agent_id, ${q('source_id', go)}, ${q('key', go)}, ${q('contact', go)},
         now() + make_interval(hours => ${q('hours', go)}), ${LEAD_ID(go)}, ${q('response', go)}, ${q('digest', go)}
    FROM go WHERE ${q('key', go)} IS NOT NULL
  ${TAKE_OVER_EXPIRED_KEY}
  RETURNING lead_id
), lead AS (
  INSERT INTO leads (${columnList(LEAD_ROW)})
  SELECT ${valueExpressions(LEAD_ROW, LEAD_AT, go).join(', ')}
    FROM go WHERE ${q('key', go)} IS NULL OR EXISTS (SELECT FROM claimed WHERE claimed.lead_id = ${LEAD_ID(go)})
  RETURNING lead_id
), w AS (
  SELECT go.* FROM go JOIN lead ON lead.lead_id = ${LEAD_ID(go)}
), contact_keys AS (
  INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
  SELECT ${w(LEAD_AT, 'uuid')}, k.kind, k.value, ${LEAD_ID(w)}
    FROM w, LATERAL (VALUES ('phone', ${q('phone', w)}), ('email', ${q('email', w)})) AS k (kind, value)
   WHERE k.value IS NOT NULL
), appointment AS (
  INSERT INTO appointments (${columnList(APPOINTMENT_ROW)})
  SELECT ${valueExpressions(APPOINTMENT_ROW, APPOINTMENT_AT, w).join(', ')}
    FROM w WHERE ${w(APPOINTMENT_AT + 1, 'uuid')} IS NOT NULL
), history AS (
  INSERT INTO lead_history (${columnList(HISTORY_ROW)})
  SELECT ${valueExpressions(HISTORY_ROW, HISTORY_AT, w).join(', ')} FROM w ORDER BY w.n
), messages AS (
  INSERT INTO outbox (agent_id, message_id, topic, lead_id, payload)
  SELECT ${w(LEAD_AT, 'uuid')}, (m.message ->> 'message_id')::uuid, m.message ->> 'topic', ${LEAD_ID(w)},
         m.message -> 'payload'
    FROM w, jsonb_array_elements(${w(PARAMS, 'jsonb')}) WITH ORDINALITY AS m (message, i)
   ORDER BY w.n, m.i
)
SELECT r.n, EXISTS (SELECT FROM src WHERE src.n = r.n) AS authentic,
       EXISTS (SELECT FROM w WHERE w.n = r.n) AS created,
       u.contact AS used_contact, u.response AS used_response, u.same_body IS TRUE AS used_same_body
  FROM r LEFT JOIN used u USING (n)`;

/**
 * New contacts' writes are gathered (db/together.ts): those that arrive in one turn of the event
 * loop, or while earlier statements run, are written by one statement, one transaction and one
 * round trip. A write that claims a key, phone or email another of the same statement claims goes
 * by itself (the statement would fail on it); and when the many-row statement fails for any reason,
 * each of its writes is made again by itself, so one delivery's fault is only its own.
 */
const writeNewContacts = together<Outcome>({ one: NEW_CONTACT_SQL, many: NEW_CONTACTS_SQL });

/** The statement's parameters, in the order numbered above. */
function values(
  claim: SourceClaim,
  d: LiveDelivery,
  plan: WritePlan,
  fingerprint: ContactFingerprint,
): unknown[] {
  const lead = plan.lead;
  const [history] = plan.history;
  const appointment = plan.agenda[0];
  if (lead?.op !== 'insert' || !history || plan.history.length !== 1 || plan.agenda.length > 1)
    throw new Error('a new contact writes one lead, one history line and at most one appointment');
  if (appointment && appointment.op !== 'insert')
    throw new Error('a new contact has no appointment to update');
  const keys = contactKeys(d.lead.fields);
  return [
    claim.tokenHash,
    claim.source.source_id,
    claim.source.revision,
    d.replayKey,
    JSON.stringify(fingerprint),
    JSON.stringify(successAnswer(plan.result)),
    LIMITS.idempotencyWindowHours,
    keyValue(keys, 'phone'),
    keyValue(keys, 'email'),
    d.bodyDigest,
    ...leadRow(plan.leadId, lead.row),
    ...(appointment ? appointmentRow(appointment.row) : APPOINTMENT_ROW.columns.map(() => null)),
    ...historyRow(history),
    JSON.stringify(plan.messages.map((m) => ({ message_id: newId(), topic: m.topic, payload: m.payload }))),
  ];
}
