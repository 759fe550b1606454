import { APPOINTMENT_ROW } from '../appointments/appointment-repository.ts';
import { newId } from '../db/ids.ts';
import type { Database } from '../db/index.ts';
import { columnList, fillRow, rowSlots, rowValues, sqlForOneOrMany, type RowParam } from '../db/statement.ts';
import { together } from '../db/together.ts';
import { fingerprintContact } from '../idempotency/fingerprint.ts';
import { TAKE_OVER_EXPIRED_KEY } from '../idempotency/key-store.ts';
import { LEAD_ROW, leadRow } from '../leads/lead-repository.ts';
import {
  answerOf,
  claims,
  contactKeysSql,
  deliveryKeys,
  deliverySlots,
  fillDelivery,
  isTakenMeanwhile,
  keySql,
  openingSql,
  OUTCOME_SQL,
  recordsSql,
  type Outcome,
  type StatementWriter,
} from './delivery-statement.ts';
import { emptyAgenda, planWrite, type LiveDelivery, type WritePlan } from './plan-write.ts';
import type { SourceClaim } from './source-directory.ts';

/**
 * Writes a new contact's delivery in one statement, shared with the new contacts that arrive at the
 * same moment (`together`): one round trip and one commit for the common case. The statement
 * checks what the plan assumed and writes nothing unless all of it holds (a source with caps never
 * comes here: its deliveries are counted in the transaction); then it tells why:
 *   - the token or the source changed → UNCONFIRMED, and the gateway asks the database again;
 *   - the idempotency key is used → its replay, or 422 when the contact differs;
 *   - a lead has the phone or email already (a merge), or another delivery is writing the same
 *     contact or key right now → null: the repeat contact's statement or the transaction decides.
 */
export function createNewContactWriter(db: Database): StatementWriter {
  const write = together<Outcome, string>(db, NEW_CONTACT);
  return async (claim, d) => {
    const plan = planWrite(claim.source, d, {
      newLeadId: newId(),
      stored: null,
      agenda: emptyAgenda(d, newId()),
    });
    const fingerprint = fingerprintContact(d.lead.fields);
    const keys = deliveryKeys(d);
    const params = newContactParams(claim, d, plan, keys, fingerprint);
    try {
      return answerOf(await write({ params, claims: claims(claim, d, keys) }), plan, fingerprint);
    } catch (err) {
      // Another delivery committed the same phone or email while this statement ran: a merge.
      if (isTakenMeanwhile(err, ['lead_contacts_pkey'])) return null;
      throw err;
    }
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
WITH ${openingSql(p, rows)}, go AS (
  SELECT src.* FROM src
   WHERE NOT EXISTS (SELECT FROM used WHERE used.n = src.n)
     AND NOT EXISTS (SELECT FROM lead_contacts c WHERE c.agent_id = ${src('lead.agent_id', 'uuid')}
                        AND c.kind = 'phone' AND c.value = ${src('phone', 'text')})
     AND NOT EXISTS (SELECT FROM lead_contacts c WHERE c.agent_id = ${src('lead.agent_id', 'uuid')}
                        AND c.kind = 'email' AND c.value = ${src('email', 'text')})
), claimed AS (
  ${keySql(p, 'go', TAKE_OVER_EXPIRED_KEY, 'RETURNING lead_id')}
), lead AS (
  INSERT INTO leads (${columnList(LEAD_ROW)})
  SELECT ${rowValues(LEAD_ROW, go, 'lead.').join(', ')} FROM go
   WHERE ${go('key.key', 'text')} IS NULL OR EXISTS (SELECT FROM claimed WHERE claimed.lead_id = ${go('lead.lead_id', 'uuid')})
  RETURNING lead_id
), w AS (
  SELECT go.* FROM go JOIN lead ON lead.lead_id = ${go('lead.lead_id', 'uuid')}
), contact_keys AS (
  ${contactKeysSql(p, { unheld: false })}
), appointment AS (
  INSERT INTO appointments (${columnList(APPOINTMENT_ROW)})
  SELECT ${rowValues(APPOINTMENT_ROW, w, 'appointment.').join(', ')}
    FROM w WHERE ${w('appointment.appointment_id', 'uuid')} IS NOT NULL
), ${recordsSql(p)}
${OUTCOME_SQL}`;
});

// Where each value goes among the statement's parameters, found once: this runs for every new lead.
const ONE = NEW_CONTACT.one;
const SHARED = deliverySlots(ONE);
const LEAD = rowSlots(ONE, LEAD_ROW, 'lead.');
const APPOINTMENT = rowSlots(ONE, APPOINTMENT_ROW, 'appointment.');

/** The statement's parameters: what every one-statement write fills, the lead and its appointment. */
function newContactParams(
  claim: SourceClaim,
  d: LiveDelivery,
  plan: WritePlan,
  keys: ReturnType<typeof deliveryKeys>,
  fingerprint: ReturnType<typeof fingerprintContact>,
): unknown[] {
  const lead = plan.lead;
  const appointment = plan.agenda[0];
  if (lead?.op !== 'insert' || plan.agenda.length > 1)
    throw new Error('a new contact inserts one lead and at most one appointment');
  if (appointment && (appointment.op !== 'insert' || appointment.continues))
    throw new Error('a new contact has no appointment to update or continue');
  const params: unknown[] = new Array(ONE.names.length).fill(null);
  fillDelivery(params, SHARED, claim, d, plan, keys, fingerprint);
  fillRow(params, LEAD, LEAD_ROW, leadRow(plan.leadId, lead.row));
  if (appointment) fillRow(params, APPOINTMENT, APPOINTMENT_ROW, { ...appointment.row });
  return params;
}
