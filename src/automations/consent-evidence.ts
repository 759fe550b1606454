import { createHash } from 'node:crypto';
import type { ConsentProviders } from '../config.ts';

/** Who verifies a lead's evidence: TrustedForm a certificate URL, Jornaya a LeadiD token. */
export type ConsentProvider = 'trustedform' | 'jornaya';

/** What a provider's answer means for the lead. `retry`: ask again (a 5xx, a 429, no answer). */
export type ConsentOutcome =
  | { status: 'verified'; expires_at: string | null }
  | { status: 'failed'; reason: string }
  | { status: 'retry'; reason: string };

/** The request to make, or the reason none may be made (the check fails with it). */
export type ConsentRequest =
  { url: string; headers: Record<string, string>; body: string } | { refused: string };

/** The lead's contact, normalized as the gateway stores it: 10 digits, a lower-case email. */
export interface ConsentContact {
  lead_id: string;
  phone: string | null;
  email: string | null;
}

/**
 * TrustedForm hashes what it recorded after lower-casing emails and keeping phones' digits, and
 * takes SHA-1 hashes of those in `match_lead` in place of the values: the prospect's contact never
 * leaves in clear.
 */
export const matchHash = (value: string): string => createHash('sha1').update(value).digest('hex');

/**
 * The certificate id of a TrustedForm URL, only when the URL is on the configured TrustedForm host
 * (same scheme, host and port); else null. The request then goes to the configured base URL, never
 * to the URL the lead brought: a lead cannot make us send our key elsewhere. Pure.
 */
export function trustedFormCertId(certUrl: string, baseUrl: string): string | null {
  let cert: URL;
  let base: URL;
  try {
    cert = new URL(certUrl);
    base = new URL(baseUrl);
  } catch {
    return null;
  }
  if (cert.protocol !== base.protocol || cert.host !== base.host || cert.username || cert.password)
    return null;
  const id = /^\/([A-Za-z0-9]{20,64})\/?$/.exec(cert.pathname)?.[1];
  return id ?? null;
}

/** The request that verifies a lead's evidence with its provider. Pure. */
export function consentRequest(
  provider: ConsentProvider,
  evidence: string,
  lead: ConsentContact,
  providers: ConsentProviders,
): ConsentRequest {
  if (provider === 'trustedform') {
    const tf = providers.trustedform;
    if (!tf) return { refused: 'trustedform_not_configured' };
    const id = trustedFormCertId(evidence, tf.baseUrl);
    if (!id) return { refused: 'certificate_not_on_trustedform' };
    if (!lead.phone && !lead.email) return { refused: 'no_contact_to_match' };
    return {
      url: `${tf.baseUrl.replace(/\/+$/, '')}/${id}`,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'api-version': '4.0',
        authorization: `Basic ${Buffer.from(`API:${tf.apiKey}`).toString('base64')}`,
      },
      body: JSON.stringify({
        retain: { reference: lead.lead_id },
        match_lead: {
          ...(lead.email ? { email: matchHash(lead.email) } : {}),
          ...(lead.phone ? { phone: matchHash(lead.phone) } : {}),
        },
      }),
    };
  }
  const jornaya = providers.jornaya;
  if (!jornaya) return { refused: 'jornaya_not_configured' };
  if (!/^[A-Za-z0-9-]{20,64}$/.test(evidence)) return { refused: 'token_malformed' };
  const data = [lead.phone ? `phone1;${lead.phone}` : '', lead.email ? `email;${lead.email}` : '']
    .filter(Boolean)
    .join('|');
  return {
    url: `${jornaya.baseUrl.replace(/\/+$/, '')}/SingleQuery`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      lac: jornaya.accountCode,
      lak: jornaya.auditKey,
      lpc: jornaya.providerCode,
      id: evidence,
      data,
      format: 'json',
    }).toString(),
  };
}

/** What a provider's answer (status and JSON body) means. Pure. */
export function readConsentAnswer(provider: ConsentProvider, status: number, body: string): ConsentOutcome {
  if (status === 429 || status >= 500) return { status: 'retry', reason: `http_${status}` };
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
  } catch {
    // A body that is no JSON is read as an empty one: the status decides.
  }
  if (status < 200 || status >= 300) return { status: 'failed', reason: `http_${status}` };
  const get = (o: unknown, ...path: string[]): unknown =>
    path.reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      o,
    );
  if (provider === 'trustedform') {
    if (get(json, 'match_lead', 'result', 'success') !== true)
      return { status: 'failed', reason: 'lead_not_matched' };
    if (get(json, 'outcome') !== 'success') return { status: 'failed', reason: 'not_retained' };
    const expires = get(json, 'retain', 'results', 'expires_at');
    return { status: 'verified', expires_at: typeof expires === 'string' ? expires : null };
  }
  const authentic = get(json, 'authenticate', 'authentic') ?? get(json, 'audit', 'authentic');
  return authentic === 1 || authentic === '1'
    ? { status: 'verified', expires_at: null }
    : { status: 'failed', reason: 'token_not_authentic' };
}
