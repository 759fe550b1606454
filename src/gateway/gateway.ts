import { createPreviews } from '../automations/preview.ts';
import type { Database } from '../db/index.ts';
import { createSampleStore } from '../listen/listen-sample-repository.ts';
import { createExactRetries, type ExactRetries } from './exact-retries.ts';
import { createRoutePreview, type ListenDeps } from './listen.ts';
import { createDeliveryWriter, type DeliveryWriter } from './write-delivery.ts';

/**
 * What deliveries share, made once per app (`createGateway`): the database, the write of a live
 * delivery (with its statement shared by new contacts of one moment and its memory of contacts
 * written), the memory of exact retries, the sample store and the previews of what a delivery fires.
 */
export interface Gateway extends ListenDeps {
  db: Database;
  writeDelivery: DeliveryWriter;
  exactRetries: ExactRetries;
}

export function createGateway(db: Database): Gateway {
  return {
    db,
    writeDelivery: createDeliveryWriter(db),
    exactRetries: createExactRetries(db),
    samples: createSampleStore(db),
    previews: createPreviews(db),
    routes: createRoutePreview(db),
  };
}
