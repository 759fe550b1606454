import { APPOINTMENT_ROW } from '../appointments/appointment-repository.ts';
import { isPgError } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import type { Database } from '../db/index.ts';
import {
  columnList,
  fillRow,
  rowSlots,
  rowValues,
  slots,
  sqlForOneOrMany,
  type RowParam,
} from '../db/statement.ts';
import { together } from '../db/together.ts';
import { fingerprintContact, type ContactFingerprint } from '../idempotency/fingerprint.ts';
import { KEY_ROW, keyRow, TAKE_OVER_EXPIRED_KEY } from '../idempotency/key-store.ts';
import type { JsonObject } from '../json.ts';
import { contactKeys, keyValue } from '../leads/contact-keys.ts';
import { HISTORY_ROW, LEAD_ROW, historyRow, leadRow } from '../leads/lead-repository.ts';
import { PURCHASE_ROW, purchaseRow } from '../leads/purchase-repository.ts';
import { insertMessagesSql, messagesJson } from '../outbox/enqueue.ts';
import { currentSourceSql } from '../sources/source-repository.ts';
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
 * Writes a new contact's delivery in one statement, shared with the new contacts that arrive at the
 * same moment (`together`): one round trip and one commit for the common case. Returns null when
 * the database knows something the plan did not assume, for the transaction to decide.
 */
export type NewContactWriter = (
  claim: SourceClaim,
  d: LiveDelivery,
) => Promise<DeliveryResult | Unconfirmed | null>;

interface Outcome {
  authentic: boolean;
  created: boolean;
  used_contact: ContactFingerprint | null;
  used_response: JsonObject | null;
  used_same_body: boolean;
}

/**
 * The statement checks what the plan assumed and writes nothing unless all of it holds (a source
 * with caps never comes here: its deliveries are counted in the transaction); then it
 * tells why:
 *   - the token or the source changed → UNCONFIRMED, and the gateway asks the database again;
 *   - the idempotency key is used → its replay, or 422 when the contact differs;
 *   - a lead has the phone or email already (a merge), or another delivery is writing the same
 *     contact or key right now → null: the general transaction decides (write-delivery.ts).
 */
export function createNewContactWriter(db: Database): NewContactWriter {
  const write = together<Outcome, string>(db, NEW_CONTACT);
  return async (claim, d) => {
    const plan = planWrite(claim.source, d, {
      newLeadId: newId(),
      stored: null,
      agenda: emptyAgenda(d, newId()),
    });
    const fingerprint = fingerprintContact(d.lead.fields);
    const contact = contactKeys(d.lead.fields);
    const keys = { phone: keyValue(contact, 'phone'), email: keyValue(contact, 'email') };
    const params = newContactParams(claim, d, plan, fingerprint, keys);
    let outcome: Outcome | undefined;
    try {
      outcome = await write({ params, claims: claimed(claim, d, keys) });
    } catch (err) {
      // Another delivery committed the same phone or email while this statement ran: a merge.
      if (isPgError(err) && err.code === '23505' && err.constraint === 'lead_contacts_pkey') return null;
      throw err;
    }
    if (!outcome?.authentic) return UNCONFIRMED;
    if (outcome.created) return plan.result;
    if (outcome.used_contact) {
      const used = {
        contact: outcome.used_contact,
        response: outcome.used_response,
        sameBody: outcome.used_same_body,
      };
      return answerForUsedKey(used, fingerprint);
    }
    return null;
  };
}

/**
 * Each sub-statement writes a call's rows only when the ones it reads from did: nothing at all
 * unless the token is current (`src`), the key is unused and the contact unknown (`go`) and the key
 * was claimed (a key committed by another delivery a moment ago is not seen by this statement, so
 * the insert waits for it and then yields). A contact committed by another delivery a moment ago
 * makes the contact-key insert fail, and the statement with it. Each lookup is correlated with its
 * call's row, so it is an index probe whatever the planner guesses of the calls' number.
 */
export const NEW_CONTACT = sqlForOneOrMany((p: RowParam, rows: string) => {
  const at = (alias: string) => (name: string, type: string) => p(name, type, alias);
  const src = at('src');
  const go = at('go');
  const w = at('w');
  return `
WITH r AS (${rows}), src AS (
  SELECT r.* FROM r JOIN sources s ON ${currentSourceSql('s', at('r'))}
), used AS (
  SELECT src.n, k.contact, k.response, (k.body_digest = ${src('key.body_digest', 'text')}) IS TRUE AS same_body
    FROM src JOIN idempotency_keys k
      ON k.agent_id = ${src('lead.agent_id', 'uuid')} AND k.source_id = ${src('source_id', 'uuid')}
     AND k.key = ${src('key.key', 'text')}
   WHERE k.expires_at > now()
), go AS (
  SELECT src.* FROM src
   WHERE NOT EXISTS (SELECT FROM used WHERE used.n = src.n)
     AND NOT EXISTS (SELECT FROM lead_contacts c WHERE c.agent_id = ${src('lead.agent_id', 'uuid')}
                        AND c.kind = 'phone' AND c.value = ${src('phone', 'text')})
     AND NOT EXISTS (SELECT FROM lead_contacts c WHERE c.agent_id = ${src('lead.agent_id', 'uuid')}
                        AND c.kind = 'email' AND c.value = ${src('email', 'text')})
), claimed AS (
  INSERT INTO idempotency_keys (${columnList(KEY_ROW)})
  SELECT ${rowValues(KEY_ROW, go, 'key.').join(', ')} FROM go WHERE ${go('key.key', 'text')} IS NOT NULL
  ${TAKE_OVER_EXPIRED_KEY}
  RETURNING lead_id
), lead AS (
  INSERT INTO leads (${columnList(LEAD_ROW)})
  SELECT ${rowValues(LEAD_ROW, go, 'lead.').join(', ')} FROM go
   WHERE ${go('key.key', 'text')} IS NULL OR EXISTS (SELECT FROM claimed WHERE claimed.lead_id = ${go('lead.lead_id', 'uuid')})
  RETURNING lead_id
), w AS (
  SELECT go.* FROM go JOIN lead ON lead.lead_id = ${go('lead.lead_id', 'uuid')}
), contact_keys AS (
  INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
  SELECT ${w('lead.agent_id', 'uuid')}, k.kind, k.value, ${w('lead.lead_id', 'uuid')}
    FROM w, LATERAL (VALUES ('phone', ${w('phone', 'text')}), ('email', ${w('email', 'text')})) AS k (kind, value)
   WHERE k.value IS NOT NULL
), appointment AS (
  INSERT INTO appointments (${columnList(APPOINTMENT_ROW)})
  SELECT ${rowValues(APPOINTMENT_ROW, w, 'appointment.').join(', ')}
    FROM w WHERE ${w('appointment.appointment_id', 'uuid')} IS NOT NULL
), history AS (
  INSERT INTO lead_history (${columnList(HISTORY_ROW)})
  SELECT ${rowValues(HISTORY_ROW, w, 'history.').join(', ')} FROM w ORDER BY w.n
), purchase AS (
  INSERT INTO lead_purchases (${columnList(PURCHASE_ROW)})
  SELECT ${rowValues(PURCHASE_ROW, w, 'purchase.').join(', ')} FROM w ORDER BY w.n
), messages AS (
  ${insertMessagesSql({ agent: w('lead.agent_id', 'uuid'), messages: w('messages', 'jsonb'), from: 'w, ', order: 'w.n, ' })}
)
SELECT r.n, EXISTS (SELECT FROM src WHERE src.n = r.n) AS authentic,
       EXISTS (SELECT FROM w WHERE w.n = r.n) AS created,
       u.contact AS used_contact, u.response AS used_response, u.same_body IS TRUE AS used_same_body
  FROM r LEFT JOIN used u USING (n)`;
});

/** What a write claims that no other write of the same statement may: key, phone, email. */
function claimed(
  claim: SourceClaim,
  d: LiveDelivery,
  keys: { phone: string | null; email: string | null },
): string[] {
  const { agent_id, source_id } = claim.source;
  const claims = [
    d.replayKey === null ? null : `key ${source_id} ${d.replayKey}`,
    keys.phone === null ? null : `phone ${agent_id} ${keys.phone}`,
    keys.email === null ? null : `email ${agent_id} ${keys.email}`,
  ];
  return claims.filter((c): c is string => c !== null);
}

// Where each value goes among the statement's parameters, found once: this runs for every new lead.
const ONE = NEW_CONTACT.one;
const [TOKEN_HASH, SOURCE_ID, REVISION, PHONE, EMAIL, MESSAGES] = slots(ONE, [
  'token_hash',
  'source_id',
  'revision',
  'phone',
  'email',
  'messages',
]);
const KEY = rowSlots(ONE, KEY_ROW, 'key.');
const LEAD = rowSlots(ONE, LEAD_ROW, 'lead.');
const APPOINTMENT = rowSlots(ONE, APPOINTMENT_ROW, 'appointment.');
const HISTORY = rowSlots(ONE, HISTORY_ROW, 'history.');
const PURCHASE = rowSlots(ONE, PURCHASE_ROW, 'purchase.');

/** The statement's parameters: the source as the request knows it, the key, the contact's keys, and every row. */
function newContactParams(
  claim: SourceClaim,
  d: LiveDelivery,
  plan: WritePlan,
  fingerprint: ContactFingerprint,
  keys: { phone: string | null; email: string | null },
): unknown[] {
  const lead = plan.lead;
  const [history] = plan.history;
  const appointment = plan.agenda[0];
  if (lead?.op !== 'insert' || !history || plan.history.length !== 1 || plan.agenda.length > 1)
    throw new Error('a new contact writes one lead, one history line and at most one appointment');
  if (appointment && appointment.op !== 'insert')
    throw new Error('a new contact has no appointment to update');
  if (!plan.purchase) throw new Error('a new contact is a plain lead, bought');
  const { agent_id, source_id } = claim.source;
  const params: unknown[] = new Array(ONE.names.length).fill(null);
  const set = (slot: number | undefined, value: unknown) => {
    params[slot ?? -1] = value;
  };
  set(TOKEN_HASH, claim.tokenHash);
  set(SOURCE_ID, source_id);
  set(REVISION, claim.source.revision);
  set(PHONE, keys.phone);
  set(EMAIL, keys.email);
  set(MESSAGES, messagesJson(plan.messages));
  if (d.replayKey !== null) {
    const scope = { agent_id, source_id, key: d.replayKey, digest: d.bodyDigest };
    const answered = { lead_id: plan.leadId, response: successAnswer(plan.result) };
    fillRow(params, KEY, KEY_ROW, keyRow(scope, fingerprint, answered));
  }
  fillRow(params, LEAD, LEAD_ROW, leadRow(plan.leadId, lead.row));
  if (appointment) fillRow(params, APPOINTMENT, APPOINTMENT_ROW, { ...appointment.row });
  fillRow(params, HISTORY, HISTORY_ROW, historyRow(history));
  fillRow(params, PURCHASE, PURCHASE_ROW, purchaseRow(plan.purchase));
  return params;
}
