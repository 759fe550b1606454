import { newId } from '../db/ids.ts';
import type { Database } from '../db/index.ts';
import { fillRow, rowSlots, setList, slots, sqlForOneOrMany, type RowParam } from '../db/statement.ts';
import { together } from '../db/together.ts';
import { fingerprintContact } from '../idempotency/fingerprint.ts';
import { billDelivery } from '../leads/billing.ts';
import { contactOwnerSql } from '../leads/contact-keys.ts';
import { LEAD_UPDATE_ROW, leadUpdateRow, storedLeadColumns, toStoredLead } from '../leads/lead-repository.ts';
import { lastBilledSql, toLastBilled } from '../leads/purchase-repository.ts';
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
  type Keys,
  type Outcome,
  type StatementWriter,
  usedKeyAnswer,
} from './delivery-statement.ts';
import { emptyAgenda, planWrite, type LiveDelivery, type WritePlan } from './plan-write.ts';
import { UNCONFIRMED, type SourceClaim } from './source-directory.ts';

/**
 * A plain lead with no appointment that asks nothing of the agenda may be a repeat contact: it is
 * merged by one read and one statement, and no transaction held between them. The read finds the
 * lead the contact's keys name (the email's owner first, as the transaction finds it), the lead's
 * row version and the source's last bill of it; the plan is made from them by the planner both
 * paths use (plan-write.ts); the statement writes it only if the token is current, the key unused,
 * the keys still name that lead and its row is still the version read (a merge changes the row, so
 * a bill or a merge made meanwhile is seen). Otherwise it writes nothing, and the transaction
 * decides, as it does when a key or contact it was to claim was committed meanwhile.
 */
export function createMergeWriter(db: Database): StatementWriter {
  const find = together<FoundRow, string>(db, FIND_CONTACT);
  const write = together<Outcome, string>(db, MERGE_CONTACT);
  return async (claim, d) => {
    const keys = deliveryKeys(d);
    const fingerprint = fingerprintContact(d.lead.fields);
    const found = await find({ params: findParams(claim, d, keys), claims: [] });
    if (!found?.authentic) return UNCONFIRMED;
    const replay = usedKeyAnswer(found, fingerprint);
    if (replay) return replay;
    if (found.lead_id === null) return null;
    const stored = toStoredLead(found);
    const billed = toLastBilled({ at: found.billed_at, now: found.billed_now });
    const plan = planWrite(claim.source, d, {
      newLeadId: newId(),
      stored,
      agenda: emptyAgenda(d, newId()),
      bill: billDelivery(claim.source.terms.duplicate_days, billed.at, billed.now),
    });
    const params = mergeParams(claim, d, plan, keys, fingerprint, found.version);
    try {
      const call = { params, claims: [...claims(claim, d, keys), `lead ${stored.lead_id}`] };
      return answerOf(await write(call), plan, fingerprint);
    } catch (err) {
      if (isTakenMeanwhile(err, ['lead_contacts_pkey', 'idempotency_keys_pkey'])) return null;
      throw err;
    }
  };
}

interface FoundRow
  extends
    Pick<Outcome, 'authentic' | 'used_contact' | 'used_response' | 'used_same_body'>,
    Record<string, unknown> {
  lead_id: string | null;
  version: string;
  billed_at: Date | string | null;
  billed_now: Date | string;
}

/**
 * For each call, as the statements open (the token check, the used key), the lead its keys name,
 * that lead's row version and its source's last bill of it; the reads of one moment share one
 * statement (`together`). Each lookup is correlated with its call's row.
 */
const FIND_CONTACT = sqlForOneOrMany((p: RowParam, rows: string) => {
  const r = (name: string, type: string) => p(name, type, 'r');
  const agent = r('lead.agent_id', 'uuid');
  return `WITH ${openingSql(p, rows)}
  SELECT r.n, EXISTS (SELECT FROM src WHERE src.n = r.n) AS authentic,
         u.contact AS used_contact, u.response AS used_response, u.same_body IS TRUE AS used_same_body,
         ${storedLeadColumns('l')}, l.xmin::text AS version, b.at AS billed_at, b.now AS billed_now
    FROM r LEFT JOIN used u USING (n)
    LEFT JOIN leads l ON l.agent_id = ${agent} AND l.lead_id = ${contactOwnerSql(agent, r('phone', 'text'), r('email', 'text'))}
    LEFT JOIN LATERAL (${lastBilledSql('l.agent_id', 'l.lead_id', r('source_id', 'uuid'))}) b ON true`;
});

/** The read's parameters: the source as the request knows it, the key, the contact's keys. */
function findParams(claim: SourceClaim, d: LiveDelivery, keys: Keys): unknown[] {
  return FIND_CONTACT.one.values({
    token_hash: claim.tokenHash,
    source_id: claim.source.source_id,
    revision: claim.source.revision,
    'lead.agent_id': claim.source.agent_id,
    'key.key': d.replayKey,
    'key.body_digest': d.bodyDigest,
    phone: keys.phone,
    email: keys.email,
  });
}

/**
 * Each sub-statement writes only when the ones it reads from did: nothing unless the token is
 * current (`src`), the key unused and the contact's keys still name the lead (`go`), and the lead's
 * row is the version read (`lead`: one merging it meanwhile is waited for, and then this one
 * updates nothing). A key or contact key committed meanwhile makes its insert fail, and the
 * statement with it.
 */
const MERGE_CONTACT = sqlForOneOrMany((p: RowParam, rows: string) => {
  const at = (alias: string) => (name: string, type: string) => p(name, type, alias);
  const src = at('src');
  const go = at('go');
  return `
WITH ${openingSql(p, rows)}, go AS (
  SELECT src.* FROM src
   WHERE NOT EXISTS (SELECT FROM used WHERE used.n = src.n)
     AND ${contactOwnerSql(src('lead.agent_id', 'uuid'), src('phone', 'text'), src('email', 'text'))} = ${src('lead.lead_id', 'uuid')}
), lead AS (
  UPDATE leads l SET ${setList(LEAD_UPDATE_ROW, go, 'update.')}, updated_at = now()
    FROM go
   WHERE l.agent_id = ${go('lead.agent_id', 'uuid')} AND l.lead_id = ${go('lead.lead_id', 'uuid')}
     AND l.xmin::text = ${go('version', 'text')}
  RETURNING l.lead_id
), w AS (
  SELECT go.* FROM go JOIN lead ON lead.lead_id = ${go('lead.lead_id', 'uuid')}
), claimed AS (
  ${keySql(p, 'w', '')}
), contact_keys AS (
  ${contactKeysSql(p, { unheld: true })}
), ${recordsSql(p)}
${OUTCOME_SQL}`;
});

const ONE = MERGE_CONTACT.one;
const SHARED = deliverySlots(ONE);
const [AGENT_ID, LEAD_ID, VERSION] = slots(ONE, ['lead.agent_id', 'lead.lead_id', 'version']);
const UPDATE = rowSlots(ONE, LEAD_UPDATE_ROW, 'update.');

/** The statement's parameters: what every one-statement write fills, the lead, its version and merge. */
function mergeParams(
  claim: SourceClaim,
  d: LiveDelivery,
  plan: WritePlan,
  keys: Keys,
  fingerprint: ReturnType<typeof fingerprintContact>,
  version: string,
): unknown[] {
  const lead = plan.lead;
  if (lead?.op !== 'update' || plan.agenda.length > 0)
    throw new Error('a repeat contact with no appointment updates its lead and nothing of its agenda');
  const params: unknown[] = new Array(ONE.names.length).fill(null);
  fillDelivery(params, SHARED, claim, d, plan, keys, fingerprint);
  const agentId = claim.source.agent_id;
  params[AGENT_ID ?? -1] = agentId;
  params[LEAD_ID ?? -1] = plan.leadId;
  params[VERSION ?? -1] = version;
  fillRow(params, UPDATE, LEAD_UPDATE_ROW, leadUpdateRow(agentId, lead.row));
  return params;
}
