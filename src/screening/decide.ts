import { hasConsentEvidence } from '../ingest/consent-evidence.ts';
import { isStale, type ScreeningEntry } from './lists.ts';

/** What screening knows of a lead when its follow-up is decided (at fan-out and before each text). */
export interface ContactFacts {
  /** The lists the lead's phone or email is on now. */
  screening: readonly ScreeningEntry[];
  /** The number answered STOP, or the agent marked it "do not contact". */
  opted_out: boolean;
  /** After its STOP the prospect texted START: texts may go again, calls may not. */
  texts_resumed?: boolean;
  /** The oldest load of the registry lists that cover the lead; null when none does. */
  registry_loaded_at: Date | null;
  /** The lead carries a consent certificate (`consent_cert_url`) or a LeadiD (`consent_token`). */
  consent_evidence: boolean;
  /** The lead said yes to texts (`sms_consent: true`). */
  sms_consent: boolean;
  now: Date;
}

/** Why a text or a call is not made; the call task is kept, blocked, with this reason. */
export type BlockReason = 'opted_out' | 'dnc' | 'litigator' | 'registry_without_consent' | 'registry_stale';

/** For each way of contact, null when it may go ahead, else why not. */
export interface ContactDecision {
  text: BlockReason | null;
  call: BlockReason | null;
}

/**
 * The screening rules (docs/compliance.md), without I/O: an opt-out, the `dnc` list and the
 * `litigator` list stop texts and calls (an opt-out whose texts a START resumed, calls only); `customer` is recorded only; the registry allows a call
 * only with consent evidence and a text with evidence or texting consent; a registry not reloaded
 * within 31 days is treated as if every lead without that consent were on it. The first reason in
 * that order is given.
 */
export function decideContact(f: ContactFacts): ContactDecision {
  const on = (list: ScreeningEntry['list']) => f.screening.some((s) => s.list === list);
  const listed: BlockReason | null = on('dnc') ? 'dnc' : on('litigator') ? 'litigator' : null;
  const call: BlockReason | null = f.opted_out ? 'opted_out' : listed;
  const text: BlockReason | null = f.opted_out && !f.texts_resumed ? 'opted_out' : listed;
  if (call && text) return { text, call };
  const registry: BlockReason | null = on('registry')
    ? 'registry_without_consent'
    : f.registry_loaded_at !== null && isStale(f.registry_loaded_at, f.now)
      ? 'registry_stale'
      : null;
  return {
    text: text ?? (registry && !(f.consent_evidence || f.sms_consent) ? registry : null),
    call: call ?? (registry && !f.consent_evidence ? registry : null),
  };
}

/** A lead's consent evidence, from its fields as the lead view has them. */
export function consentOf(lead: Record<string, unknown>): {
  consent_evidence: boolean;
  sms_consent: boolean;
} {
  return {
    consent_evidence: hasConsentEvidence(lead),
    sms_consent: lead.sms_consent === true,
  };
}
