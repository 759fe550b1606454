import { hash, verify } from '@node-rs/argon2';

/**
 * Console passwords: Argon2id (the package's defaults: 19 MiB, 2 passes, OWASP's minimum). The
 * route's schema holds them to LIMITS.passwordMinLength–passwordMaxLength characters (hashing a
 * megabyte-long "password" would be a cheap way to burn the server's CPU).
 */
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches; false for a wrong one or a hash this build cannot read. */
export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of nothing anyone can type, verified when the email is unknown, so an unknown email takes
 * as long to refuse as a wrong password (no timing hint of which emails have logins).
 */
export const DECOY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$It1pR9AqoVCTdVlfMTndCA$apzqHqxkHv+4X5k098iekv1GMRKn2C+RFM4NZmLM8h0';
