import { hash, randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A source token is a random UUID (v4): 122 bits of entropy, 36 characters (docs/sender-contract.md, "Authentication"). */
export function newSourceToken(): string {
  return randomUUID();
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
