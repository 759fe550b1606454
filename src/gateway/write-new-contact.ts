import { randomUUID } from 'node:crypto';
import { APPOINTMENT_ROW, appointmentRow } from '../appointments/appointment-repository.ts';
import { isPgError } from '../db/database.ts';
import type { Queryable } from '../db/index.ts';
import { columnList, valueExpressions, type RowShape } from '../db/row-shape.ts';
import { LIMITS } from '../config.ts';
import { fingerprintContact, type ContactFingerprint } from '../idempotency/fingerprint.ts';
import type { JsonObject } from '../json.ts';
import { contactKeys } from '../leads/contact-keys.ts';
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
 * (durable when it returns): the token check (still active, the source at the revision the request
 * mapped with), the idempotency key with the answer to replay, the contact's keys, the lead, its
 * appointment, its history line and its outbox messages. The statement writes nothing unless the
 * database confirms what the plan assumed; then it tells why:
 *   - the token or the source changed → UNCONFIRMED, and the gateway asks the database again;
 *   - the idempotency key is used → its replay, or 422 when the contact differs;
 *   - a lead has the phone or email already (a merge), or another delivery is writing the same
 *     contact or key right now → null: the general transaction decides (write-delivery.ts).
 */
export async function writeNewContact(
  db: Queryable,
  claim: SourceClaim,
  d: LiveDelivery,
): Promise<DeliveryResult | Unconfirmed | null> {
  const plan = planWrite(claim.source, d, {
    newLeadId: randomUUID(),
    stored: null,
    agenda: emptyAgenda(d, randomUUID()),
  });
  const fingerprint = fingerprintContact(d.lead.fields);
  let outcome: Outcome | undefined;
  try {
    ({
      rows: [outcome],
    } = await db.query<Outcome>(NEW_CONTACT_SQL, values(claim, d, plan, fingerprint)));
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
  ON CONFLICT (agent_id, source_id, key) DO UPDATE
     SET contact = EXCLUDED.contact, expires_at = EXCLUDED.expires_at, created_at = now(),
         lead_id = EXCLUDED.lead_id, response = EXCLUDED.response, body_digest = EXCLUDED.body_digest
   WHERE idempotency_keys.expires_at <= now()
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
  const key = (kind: string) => keys.find((k) => k.kind === kind)?.value ?? null;
  return [
    claim.tokenHash,
    claim.source.source_id,
    claim.source.revision,
    d.replayKey,
    JSON.stringify(fingerprint),
    JSON.stringify(successAnswer(plan.result)),
    LIMITS.idempotencyWindowHours,
    key('phone'),
    key('email'),
    d.bodyDigest,
    ...leadRow(plan.leadId, lead.row),
    ...(appointment ? appointmentRow(appointment.row) : APPOINTMENT_ROW.columns.map(() => null)),
    ...historyRow(history),
    JSON.stringify(
      plan.messages.map((m) => ({ message_id: randomUUID(), topic: m.topic, payload: m.payload })),
    ),
  ];
}
