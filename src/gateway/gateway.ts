import { createPreviews } from '../automations/preview.ts';
import type { Database } from '../db/index.ts';
import { createSampleStore } from '../listen/listen-sample-repository.ts';
import type { SecretBox } from '../sources/secrets.ts';
import { createExactRetries, type ExactRetries } from './exact-retries.ts';
import { createRoutePreview, type ListenDeps } from './listen.ts';
import { createDeliveryWriter, type DeliveryWriter } from './write-delivery.ts';

/**
 * What deliveries share, made once per app (`createGateway`): the database, the write of a live
 * delivery (with its statement shared by new contacts of one moment and its memory of contacts
 * written), the memory of exact retries, the sample store, the previews of what a delivery fires,
 * the box that opens the sources' sealed secrets, and who is told when Meta leads are queued.
 */
export interface Gateway extends ListenDeps {
  db: Database;
  writeDelivery: DeliveryWriter;
  exactRetries: ExactRetries;
  secrets: SecretBox;
  /** Called when an envelope queued new Meta leads (the fetcher of this process looks at once). */
  metaQueued: () => void;
}

export function createGateway(
  db: Database,
  secrets: SecretBox,
  metaQueued: () => void = () => undefined,
): Gateway {
  return {
    db,
    writeDelivery: createDeliveryWriter(db),
    exactRetries: createExactRetries(db),
    samples: createSampleStore(db),
    previews: createPreviews(db),
    routes: createRoutePreview(db),
    secrets,
    metaQueued,
  };
}
