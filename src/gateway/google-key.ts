import { isGoogleLeadForm } from '../ingest/envelopes/adapters.ts';
import { own, type JsonObject } from '../json.ts';
import { matchesHash } from '../sources/secrets.ts';

export type GoogleKeyCheck = { ok: true; body: JsonObject; scrubbed: boolean } | { ok: false };

/**
 * A Google Ads lead form webhook carries the `google_key` the advertiser typed into the form's
 * webhook settings: when the source has one (kept as a hash), a form body must carry the same, else
 * it is refused. The key is taken out of the body either way (`scrubbed`), so it lands in no lead
 * and no sample. Any other body passes as it is. Pure.
 */
export function checkGoogleKey(body: JsonObject, keyHash: string | null): GoogleKeyCheck {
  if (!isGoogleLeadForm(body)) return { ok: true, body, scrubbed: false };
  const key = own(body, 'google_key');
  if (keyHash !== null && !matchesHash(typeof key === 'string' ? key : undefined, keyHash))
    return { ok: false };
  if (key === undefined) return { ok: true, body, scrubbed: false };
  const { google_key: _dropped, ...rest } = body;
  return { ok: true, body: rest, scrubbed: true };
}
