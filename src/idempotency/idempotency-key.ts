import { LIMITS } from '../limits.ts';
import type { JsonValue } from '../json.ts';

export type KeyParse = { ok: true; key: string | undefined } | { ok: false; details: string };

/**
 * The delivery's idempotency key: the `Idempotency-Key` header wins over the body field.
 * 1–255 printable characters; a quoted structured-field string (`"abc"`) equals the bare `abc`.
 * A number in the body is taken as its decimal text (forgiving: some form tools send numbers).
 */
export function parseIdempotencyKey(
  header: string | string[] | undefined,
  body: JsonValue | undefined,
): KeyParse {
  const headerValue = Array.isArray(header) ? header.join(',') : header;
  let raw: string | undefined;
  if (headerValue !== undefined) raw = headerValue;
  else if (typeof body === 'string') raw = body;
  else if (typeof body === 'number' && Number.isFinite(body)) raw = String(body);
  else if (body !== undefined && body !== null) {
    return { ok: false, details: 'idempotency_key must be a string' };
  }
  if (raw === undefined) return { ok: true, key: undefined };
  let key = raw.trim();
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(key);
  if (quoted?.[1] !== undefined) key = quoted[1].replace(/\\(.)/g, '$1');
  if (key.length === 0 || key.length > LIMITS.idempotencyKeyMaxLength) {
    return {
      ok: false,
      details: `The idempotency key must be 1 to ${LIMITS.idempotencyKeyMaxLength} characters`,
    };
  }
  if (/\p{Cc}/u.test(key)) return { ok: false, details: 'The idempotency key must be printable characters' };
  return { ok: true, key };
}
