/**
 * Whether a lead carries consent evidence: a consent certificate (`consent_cert_url`) or a LeadiD
 * (`consent_token`). A source's `require_consent` asks for it and screening calls a registry number
 * only with it; one rule, so the gateway never takes a lead as evidenced that screening will not.
 */
export function hasConsentEvidence(lead: Readonly<Record<string, unknown>>): boolean {
  return given(lead.consent_cert_url) || given(lead.consent_token);
}

const given = (value: unknown) => typeof value === 'string' && value.trim() !== '';
