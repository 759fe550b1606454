import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Database } from '../db/index.ts';
import type { SecretBox } from '../sources/secrets.ts';

/** What the admin API needs from the process. */
export interface AdminDeps {
  db: Database;
  adminApiKey: string;
  /** Base of the webhook URLs handed out with a token (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  /** Seals the sources' third-party secrets (Meta) with the installation's key (`SECRETS_KEY`). */
  secrets: SecretBox;
  /** Whether destinations may be on private networks (`ALLOW_PRIVATE_DESTINATIONS=true`). */
  allowPrivateDestinations?: boolean;
}

/** The admin scope with TypeBox types: a route's schema types its handler's request. */
export type AdminApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
