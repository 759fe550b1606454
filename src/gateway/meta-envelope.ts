import { createHmac, timingSafeEqual } from 'node:crypto';
import { isJsonObject, own, type JsonObject, type JsonValue } from '../json.ts';

/** One lead Meta announced: the ids its leadgen change carries (the lead itself is fetched). */
export interface AnnouncedLead {
  leadgen_id: string;
  form_id: string | null;
  ad_id: string | null;
  page_id: string | null;
  created_time: string | null;
}

/**
 * Meta's page webhook, recognised by its structure: `{"object": "page", "entry": [{"changes":
 * [{"field": "leadgen", "value": {leadgen_id, form_id, ad_id, page_id, created_time}}]}]}`. Returns
 * the leads it announces, each once, in order (changes of other fields announce none); null when
 * the body is no such envelope. Pure.
 */
export function readMetaEnvelope(body: JsonObject): AnnouncedLead[] | null {
  const entries = own(body, 'entry');
  if (own(body, 'object') !== 'page' || !Array.isArray(entries) || entries.length === 0) return null;
  if (!entries.every((e) => isJsonObject(e) && Array.isArray(own(e, 'changes')))) return null;
  const leads = new Map<string, AnnouncedLead>();
  for (const entry of entries as JsonObject[]) {
    for (const change of own(entry, 'changes') as JsonValue[]) {
      if (!isJsonObject(change) || own(change, 'field') !== 'leadgen') continue;
      const value = own(change, 'value');
      if (!isJsonObject(value)) continue;
      const id = idText(own(value, 'leadgen_id'));
      if (id === null || leads.has(id)) continue;
      leads.set(id, {
        leadgen_id: id,
        form_id: idText(own(value, 'form_id')),
        ad_id: idText(own(value, 'ad_id')),
        page_id: idText(own(value, 'page_id')) ?? idText(own(entry, 'id')),
        created_time: idText(own(value, 'created_time')),
      });
    }
  }
  return [...leads.values()];
}

/** An id as Meta writes it, a string (or, from hand-made tests, a number); anything else: none. */
function idText(value: JsonValue | undefined): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' || text.length > 128 ? null : text;
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * Checks `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed by the app secret>`
 * over the bytes as received, in constant time. A missing or malformed header, or an empty secret,
 * never passes.
 */
export function verifyMetaSignature(
  header: string | string[] | undefined,
  rawBody: Uint8Array,
  appSecret: string,
): boolean {
  const match = typeof header === 'string' ? SIGNATURE.exec(header.trim()) : null;
  if (!match?.[1] || appSecret === '') return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

/** The header Meta would send for this body (tests, and the docs' example). */
export function signMetaPayload(rawBody: string | Uint8Array, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
