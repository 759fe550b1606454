import type { Database } from '../db/index.ts';
import type { SecretBox } from '../sources/secrets.ts';

/** What the console needs from the process. */
export interface ConsoleDeps {
  db: Database;
  /** Base of the gateway's URLs, for webhook URLs and curl examples (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  allowPrivateDestinations?: boolean;
  /** Seals the sources' Meta secrets (`SECRETS_KEY`). */
  secrets: SecretBox;
  /** Signs the console's cookies (`SESSION_SECRET`, else generated and kept in the database). */
  sessionSecret: string;
}
