/**
 * Who a delivery is about, stored with its idempotency key: the normalized name, phone and email
 * (trimmed, inner white space folded, lower-cased). A later delivery under the same key is a retry
 * when `isSameContact` says so, and refused with 422 IDEMPOTENCY_KEY_REUSED when it does not
 * (docs/sender-contract.md, "Retries and idempotency").
 */
export interface ContactFingerprint {
  name: string | null;
  phone: string | null;
  email: string | null;
}

/** The fingerprint of a mapped lead; depends only on its values, never on the body's key order. */
export function fingerprintContact(lead: {
  name?: unknown;
  phone?: unknown;
  email?: unknown;
}): ContactFingerprint {
  const norm = (v: unknown) =>
    typeof v === 'string' && v.trim() !== '' ? v.trim().replace(/\s+/g, ' ').toLowerCase() : null;
  return { name: norm(lead.name), phone: norm(lead.phone), email: norm(lead.email) };
}

/** The same contact unless name, phone and email all differ; a value absent on either side never matches. */
export function isSameContact(a: ContactFingerprint, b: ContactFingerprint): boolean {
  return (
    (a.name !== null && a.name === b.name) ||
    (a.phone !== null && a.phone === b.phone) ||
    (a.email !== null && a.email === b.email)
  );
}
