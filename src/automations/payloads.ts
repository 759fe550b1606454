import { hash } from 'node:crypto';
import { normalizeEmail } from '../ingest/normalize/email.ts';
import type { JsonObject, JsonValue } from '../json.ts';

/** Ad and attribution identifiers an analytics destination receives (never the contact in clear). */
export const ATTRIBUTION_FIELDS = [
  'socialclid',
  'socialc',
  'socialp',
  'leadgen_id',
  'ad_id',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'ip_address',
  'user_agent',
  'consent_cert_url',
] as const;

export const DESTINATION_KINDS = ['partner_sync', 'analytics'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** A lead as an outbound event shows it: its fields by name, custom_fields, status, ids. */
export type LeadSnapshot = JsonObject & { lead_id: string; status: string };

/**
 * The body of one webhook, by destination kind (docs/outbox.md, "Webhooks"): `{type, timestamp,
 * data}`. A partner-sync destination gets the event and the whole lead; an analytics destination
 * the event's ids, the attribution identifiers, and the email and phone only as SHA-256. Pure.
 */
export function webhookBody(
  kind: DestinationKind,
  event: { topic: string; created_at: string; payload: JsonObject },
  lead: LeadSnapshot | null,
): JsonObject {
  const data: JsonObject =
    kind === 'partner_sync' ? { ...event.payload, lead } : { ...idsOf(event.payload), ...analytics(lead) };
  return { type: event.topic, timestamp: event.created_at, data };
}

function idsOf(payload: JsonObject): JsonObject {
  const keep = [
    'lead_id',
    'source_id',
    'status',
    'appointment_id',
    'scheduled_at',
    'status_from',
    'replaced_by',
  ];
  return Object.fromEntries(Object.entries(payload).filter(([key]) => keep.includes(key)));
}

function analytics(lead: LeadSnapshot | null): JsonObject {
  const text = (key: string): string | null => {
    const value: JsonValue | undefined = lead?.[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  // The destination matches on the hash of the email as intake normalizes it, whatever the snapshot holds.
  const typed = text('email');
  const normalized = typed === null ? null : normalizeEmail(typed);
  const email = normalized?.ok ? normalized.value : null;
  const phone = text('phone');
  const attribution: JsonObject = {};
  for (const field of ATTRIBUTION_FIELDS) attribution[field] = text(field);
  return {
    email_sha256: email ? sha256(email) : null,
    // The phone in E.164 (+1 and the 10 digits), as the ad platforms match it.
    phone_sha256: phone ? sha256(`+1${phone}`) : null,
    attribution,
  };
}

export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}
