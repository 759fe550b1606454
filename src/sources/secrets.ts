import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A source's third-party secrets (Meta's page access token and app secret) sealed at rest with
 * AES-256-GCM under the installation's key (`SECRETS_KEY`, else `DATA_DIR/secrets.key`), which the
 * database never holds: a copy of the database alone does not give them away. Each value is bound
 * to its source and its purpose, so a sealed value copied to another row or column does not open.
 */
export interface SecretBox {
  seal(value: string, context: SecretContext): string;
  /** The value, or null when it does not open under this key (another installation's, or altered). */
  open(sealed: string, context: SecretContext): string | null;
}

/** Which secret of which source a value is. */
export interface SecretContext {
  source_id: string;
  purpose: 'meta_page_access_token' | 'meta_app_secret';
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A box over `key`: any text of at least 32 characters, stretched to an AES key by HKDF. */
export function createSecretBox(key: string): SecretBox {
  if (key.length < 32) throw new Error('the secrets key must be at least 32 characters');
  const aesKey = Buffer.from(hkdfSync('sha256', key, '', 'leadgate source secrets v1', 32));
  const aad = (c: SecretContext) => Buffer.from(`${c.source_id}:${c.purpose}`);
  return {
    seal(value, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
      cipher.setAAD(aad(context));
      const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, payload] = sealed.split(':');
      if (version !== VERSION || payload === undefined) return null;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', aesKey, bytes.subarray(0, IV_BYTES));
        decipher.setAAD(aad(context));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** A new installation key, for the key file made on first start. */
export function newSecretsKey(): string {
  return randomBytes(32).toString('base64url');
}

/** A credential kept only as a hash (the Meta verify token, the Google key): SHA-256, hex. */
export function hashSecret(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Whether `presented` hashes to `storedHash`, in constant time; nothing matches a missing hash. */
export function matchesHash(presented: string | undefined, storedHash: string | null): boolean {
  if (presented === undefined || storedHash === null) return false;
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashSecret(presented), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
