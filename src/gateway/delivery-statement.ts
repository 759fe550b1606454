import { isPgError } from '../db/database.ts';
import {
  columnList,
  rowSlots,
  rowValues,
  slots,
  fillRow,
  type RowParam,
  type Statement,
} from '../db/statement.ts';
import type { ContactFingerprint } from '../idempotency/fingerprint.ts';
import { KEY_ROW, keyRow } from '../idempotency/key-store.ts';
import type { JsonObject } from '../json.ts';
import { contactKeys, keyValue } from '../leads/contact-keys.ts';
import { HISTORY_ROW, historyRow } from '../leads/lead-repository.ts';
import { PURCHASE_ROW, purchaseRow } from '../leads/purchase-repository.ts';
import { insertMessagesSql, messagesJson } from '../outbox/enqueue.ts';
import { currentSourceSql } from '../sources/source-repository.ts';
import type { LiveDelivery, WritePlan } from './plan-write.ts';
import { answerForUsedKey, successAnswer, type DeliveryResult } from './result.ts';
import { UNCONFIRMED, type Unconfirmed, type SourceClaim } from './source-directory.ts';

// What the two one-statement writes (a new contact, a repeat contact) share: which deliveries may
// take them, how they open (the token check and the used key), the records a written delivery
// adds, and their answer. Each statement names `go` (what may be written) and `w` (what was); the
// rest is theirs.

/**
 * A plain lead delivery (not a scheduler's event) that may be written by one statement: a new
 * contact, or a repeat contact's merge (write-merge.ts). Scheduler events name appointments by
 * their invitee and go the general way.
 */
export function isOneStatementCandidate(d: LiveDelivery): boolean {
  return d.scheduler === null && d.externalId === null && !d.leadIfNew && d.agenda?.kind !== 'cancel';
}

/** The contact's keys as the statements compare them: phone and email, null when absent. */
export interface Keys {
  phone: string | null;
  email: string | null;
}

export function deliveryKeys(d: LiveDelivery): Keys {
  const contact = contactKeys(d.lead.fields);
  return { phone: keyValue(contact, 'phone'), email: keyValue(contact, 'email') };
}

/** A delivery written by one statement; null: the database knows otherwise, the transaction decides. */
export type StatementWriter = (
  claim: SourceClaim,
  d: LiveDelivery,
) => Promise<DeliveryResult | Unconfirmed | null>;

/** A call's row in the statement's answer. */
export interface Outcome {
  authentic: boolean;
  written: boolean;
  used_contact: ContactFingerprint | null;
  used_response: JsonObject | null;
  used_same_body: boolean;
}

/** `r` (the calls), `src` (those whose token and source are current) and `used` (their used keys). */
export function openingSql(p: RowParam, rows: string): string {
  const src = (name: string, type: string) => p(name, type, 'src');
  return `r AS (${rows}), src AS (
  SELECT r.* FROM r JOIN sources s ON ${currentSourceSql('s', (name, type) => p(name, type, 'r'))}
), used AS (
  SELECT src.n, k.contact, k.response, (k.body_digest = ${src('key.body_digest', 'text')}) IS TRUE AS same_body
    FROM src JOIN idempotency_keys k
      ON k.agent_id = ${src('lead.agent_id', 'uuid')} AND k.source_id = ${src('source_id', 'uuid')}
     AND k.key = ${src('key.key', 'text')}
   WHERE k.expires_at > now()
)`;
}

/** The key's row, inserted from `from` when the delivery has one; `end` says what a conflict does. */
export function keySql(p: RowParam, from: string, end: string, returning = ''): string {
  const at = (name: string, type: string) => p(name, type, from);
  return `INSERT INTO idempotency_keys (${columnList(KEY_ROW)})
  SELECT ${rowValues(KEY_ROW, at, 'key.').join(', ')} FROM ${from} WHERE ${at('key.key', 'text')} IS NOT NULL
  ${end} ${returning}`;
}

/**
 * The contact's phone and email keys for the lead written (`w`); `unheld`: only those no lead
 * holds (a merge's lead keeps its keys, and another lead's stay its own).
 */
export function contactKeysSql(p: RowParam, { unheld }: { unheld: boolean }): string {
  const w = (name: string, type: string) => p(name, type, 'w');
  const agent = w('lead.agent_id', 'uuid');
  return `INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
  SELECT ${agent}, k.kind, k.value, ${w('lead.lead_id', 'uuid')}
    FROM w, LATERAL (VALUES ('phone', ${w('phone', 'text')}), ('email', ${w('email', 'text')})) AS k (kind, value)
   WHERE k.value IS NOT NULL${
     unheld
       ? `
     AND NOT EXISTS (SELECT FROM lead_contacts c WHERE c.agent_id = ${agent} AND c.kind = k.kind AND c.value = k.value)`
       : ''
   }`;
}

/** What every written delivery adds, read from `w`: its history line, its purchase and its messages. */
export function recordsSql(p: RowParam): string {
  const w = (name: string, type: string) => p(name, type, 'w');
  return `history AS (
  INSERT INTO lead_history (${columnList(HISTORY_ROW)})
  SELECT ${rowValues(HISTORY_ROW, w, 'history.').join(', ')} FROM w ORDER BY w.n
), purchase AS (
  INSERT INTO lead_purchases (${columnList(PURCHASE_ROW)})
  SELECT ${rowValues(PURCHASE_ROW, w, 'purchase.').join(', ')} FROM w ORDER BY w.n
), messages AS (
  ${insertMessagesSql({ agent: w('lead.agent_id', 'uuid'), messages: w('messages', 'jsonb'), from: 'w, ', order: 'w.n, ' })}
)`;
}

/** Each call's answer: whether its token held, whether it was written, and its used key if any. */
export const OUTCOME_SQL = `SELECT r.n, EXISTS (SELECT FROM src WHERE src.n = r.n) AS authentic,
       EXISTS (SELECT FROM w WHERE w.n = r.n) AS written,
       u.contact AS used_contact, u.response AS used_response, u.same_body IS TRUE AS used_same_body
  FROM r LEFT JOIN used u USING (n)`;

/** Where the shared values go among a statement's parameters, found once per statement. */
export interface DeliverySlots {
  source: number[];
  keys: number[];
  messages: number;
  key: number[];
  history: number[];
  purchase: number[];
}

export function deliverySlots(one: Statement): DeliverySlots {
  const [messages = -1] = slots(one, ['messages']);
  return {
    source: slots(one, ['token_hash', 'source_id', 'revision']),
    keys: slots(one, ['phone', 'email']),
    messages,
    key: rowSlots(one, KEY_ROW, 'key.'),
    history: rowSlots(one, HISTORY_ROW, 'history.'),
    purchase: rowSlots(one, PURCHASE_ROW, 'purchase.'),
  };
}

/**
 * Fills the shared parameters of a plain lead's plan (one history line, a purchase): the source as
 * the request knows it, the contact's keys, the key's row with its answer, and the records.
 */
export function fillDelivery(
  params: unknown[],
  at: DeliverySlots,
  claim: SourceClaim,
  d: LiveDelivery,
  plan: WritePlan,
  keys: Keys,
  fingerprint: ContactFingerprint,
): void {
  const [history] = plan.history;
  if (!history || plan.history.length !== 1 || !plan.purchase || plan.eventLog)
    throw new Error('a plain lead writes one history line and one purchase');
  const { agent_id, source_id } = claim.source;
  fillValues(params, at.source, [claim.tokenHash, source_id, claim.source.revision]);
  fillValues(params, at.keys, [keys.phone, keys.email]);
  params[at.messages] = messagesJson(plan.messages);
  if (d.replayKey !== null) {
    const scope = { agent_id, source_id, key: d.replayKey, digest: d.bodyDigest };
    const answered = { lead_id: plan.leadId, response: successAnswer(plan.result) };
    fillRow(params, at.key, KEY_ROW, keyRow(scope, fingerprint, answered));
  }
  fillRow(params, at.history, HISTORY_ROW, historyRow(history));
  fillRow(params, at.purchase, PURCHASE_ROW, purchaseRow(plan.purchase));
}

function fillValues(params: unknown[], at: readonly number[], values: readonly unknown[]): void {
  values.forEach((value, i) => {
    params[at[i] ?? -1] = value;
  });
}

/** What no other call of the same statement may claim: the key, the phone, the email (and more). */
export function claims(claim: SourceClaim, d: LiveDelivery, keys: Keys): string[] {
  const { agent_id, source_id } = claim.source;
  const all = [
    d.replayKey === null ? null : `key ${source_id} ${d.replayKey}`,
    keys.phone === null ? null : `phone ${agent_id} ${keys.phone}`,
    keys.email === null ? null : `email ${agent_id} ${keys.email}`,
  ];
  return all.filter((c): c is string => c !== null);
}

/**
 * The answer a statement's outcome gives: UNCONFIRMED when the token or source changed, the plan's
 * result when written, the used key's replay (or 422), or null: the transaction decides.
 */
export function answerOf(
  outcome: Outcome | undefined,
  plan: WritePlan,
  fingerprint: ContactFingerprint,
): DeliveryResult | Unconfirmed | null {
  if (!outcome?.authentic) return UNCONFIRMED;
  if (outcome.written) return plan.result;
  return usedKeyAnswer(outcome, fingerprint);
}

/** The replay of a used key (or 422 when the contact differs), or null when the key is not used. */
export function usedKeyAnswer(
  outcome: Pick<Outcome, 'used_contact' | 'used_response' | 'used_same_body'>,
  fingerprint: ContactFingerprint,
): DeliveryResult | null {
  if (!outcome.used_contact) return null;
  const used = {
    contact: outcome.used_contact,
    response: outcome.used_response,
    sameBody: outcome.used_same_body,
  };
  return answerForUsedKey(used, fingerprint);
}

/** A unique key another delivery committed while the statement ran: the transaction decides. */
export function isTakenMeanwhile(err: unknown, constraints: readonly string[]): boolean {
  return isPgError(err) && err.code === '23505' && constraints.includes(err.constraint ?? '');
}
