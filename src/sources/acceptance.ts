import { hasConsentEvidence } from '../ingest/consent-evidence.ts';
import type { AcceptRules } from './terms.ts';

/** A source's rules on one lead: accepted, or the first rule it breaks in words for the sender. */
export type Verdict = { accepted: true } | { accepted: false; rule: keyof AcceptRules; details: string };

const ACCEPTED: Verdict = { accepted: true };

/**
 * Whether a lead passes its source's acceptance rules, checked in a fixed order (state, ages,
 * consent). A value the lead does not carry breaks no rule: only `require_consent` asks for one.
 * Pure.
 */
export function acceptLead(rules: AcceptRules, lead: Readonly<Record<string, unknown>>): Verdict {
  const state = typeof lead.state === 'string' && lead.state !== '' ? lead.state.toUpperCase() : null;
  if (rules.states && state !== null && !rules.states.some((s) => s.toUpperCase() === state))
    return refuse('states', `state ${state} is not accepted by this source`);
  const age = typeof lead.age === 'number' && Number.isFinite(lead.age) ? lead.age : null;
  if (rules.min_age !== undefined && age !== null && age < rules.min_age)
    return refuse('min_age', `age ${age} is under this source's minimum age of ${rules.min_age}`);
  if (rules.max_age !== undefined && age !== null && age > rules.max_age)
    return refuse('max_age', `age ${age} is over this source's maximum age of ${rules.max_age}`);
  if (rules.require_consent === true && !hasConsentEvidence(lead))
    return refuse(
      'require_consent',
      'this source requires consent evidence: consent_cert_url or consent_token is missing',
    );
  return ACCEPTED;
}

function refuse(rule: keyof AcceptRules, details: string): Verdict {
  return { accepted: false, rule, details };
}
