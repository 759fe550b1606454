import { handleBookingEvent } from '../booking-events/handle-booking-event.ts';
import { parseBookingEvent } from '../booking-events/parse-event.ts';
import type { Database } from '../db/index.ts';
import { appError } from '../errors.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency-key.ts';
import type { JsonObject } from '../ingest/types.ts';
import { recordListenSample } from '../listen/record-listen-sample.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { ingestLead, type DeliveryResponse } from './ingest-lead.ts';
import { prepareLead } from './prepare-lead.ts';

/**
 * The story of one delivery once the sender is authenticated and the body is a JSON object:
 * a booking-scheduler event goes its own way; a lead is mapped, then either stored as a Listen
 * sample or ingested live. Checks after JSON: name, then
 * the idempotency key.
 */
export async function handleDelivery(
  db: Database,
  source: AuthenticatedSource,
  body: JsonObject,
  request: {
    rawBody: Uint8Array;
    idempotencyHeader: string | string[] | undefined;
    signatureHeader: string | string[] | undefined;
  },
): Promise<DeliveryResponse> {
  const event = parseBookingEvent(body);
  if (event) return handleBookingEvent(db, source, event, { body, ...request });
  const lead = prepareLead(body, source.agent_timezone);
  if (lead.control.listen) return recordListenSample(db, source, body, lead);
  if (!lead.hasName) throw appError('MISSING_NAME');
  const key = parseIdempotencyKey(request.idempotencyHeader, lead.control.idempotency_key);
  if (!key.ok) throw appError('INVALID_IDEMPOTENCY_KEY', key.details);
  return ingestLead(db, source, lead, key.key ? { idempotencyKey: key.key } : {});
}
