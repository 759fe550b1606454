import type { LeadFields } from '../ingest/types.ts';
import { text } from '../json.ts';

/** The consent evidence a delivery brings, before the database adds the time it arrived. */
export interface ConsentEvidence {
  sms_consent: boolean;
  consent_cert_url: string | null;
  /** The Jornaya LeadiD token (`leadid_token`, `universal_leadid`), as sent. */
  consent_token: string | null;
  ip_address: string | null;
  user_agent: string | null;
  source_id: string;
}

/**
 * What a delivery says about texting consent, with the evidence a TCPA dispute asks for; null when
 * it does not say (`sms_consent` missing or not understood), so the lead keeps what it had.
 */
export function consentEvidence(fields: LeadFields, sourceId: string): ConsentEvidence | null {
  if (typeof fields.sms_consent !== 'boolean') return null;
  return {
    sms_consent: fields.sms_consent,
    consent_cert_url: text(fields.consent_cert_url),
    consent_token: text(fields.consent_token),
    ip_address: text(fields.ip_address),
    user_agent: text(fields.user_agent),
    source_id: sourceId,
  };
}
