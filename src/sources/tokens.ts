import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { settingMadeOnce, type Queryable } from '../db/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The installation's token key: 32 random bytes made on first use and kept in the database
 * (`settings`), so every gateway process on it checks the tokens every other one issues.
 */
export async function tokenKey(db: Queryable): Promise<Buffer> {
  return Buffer.from(
    await settingMadeOnce(db, 'source_token_key', () => randomBytes(32).toString('hex')),
    'hex',
  );
}

/**
 * A new source token: a version-4 UUID, 36 characters, whose last 32 bits are a check of the rest
 * under the installation's key (the first 32 bits of an HMAC-SHA256); the other 90 bits are
 * random. To anyone without the key the check is as random as the bits it replaced, so guessing a
 * token is as hard as guessing a random UUID (122 bits); with the key, the gateway refuses a
 * made-up token without asking the database (`carriesCheck`). See docs/sender-contract.md,
 * "Authentication".
 */
export function newSourceToken(key: Uint8Array): string {
  const bytes = randomBytes(16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  check(key, bytes).copy(bytes, 12);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether a token is a version-4 UUID carrying the check of `key` (any case). */
export function carriesCheck(token: string, key: Uint8Array): boolean {
  if (!UUID.test(token)) return false;
  const bytes = Buffer.from(token.replaceAll('-', ''), 'hex');
  if ((bytes[6] ?? 0) >> 4 !== 4 || (bytes[8] ?? 0) >> 6 !== 2) return false;
  return timingSafeEqual(check(key, bytes), bytes.subarray(12));
}

/** The check of a token's first 12 bytes: the first 4 bytes of their HMAC-SHA256 under `key`. */
function check(key: Uint8Array, bytes: Buffer): Buffer {
  return createHmac('sha256', key).update(bytes.subarray(0, 12)).digest().subarray(0, 4);
}

export function isWellFormedToken(token: string): boolean {
  return UUID.test(token);
}

/** Tokens are stored only as this hash. Lower-cased first: a UUID is case-insensitive. */
export function hashToken(token: string): string {
  return hash('sha256', token.toLowerCase(), 'hex');
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
