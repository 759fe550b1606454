import type { Database } from '../db/index.ts';

/** What the admin API needs from the process. */
export interface AdminDeps {
  db: Database;
  adminApiKey: string;
  /** Base of the webhook URLs handed out with a token (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  /** Whether destinations may be on private networks (`ALLOW_PRIVATE_DESTINATIONS=true`). */
  allowPrivateDestinations?: boolean;
}
