import { parseBookingEvent } from '../booking-events/parse-event.ts';
import type { Database } from '../db/index.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency-key.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { recordListenSample } from './listen.ts';
import { parseDeliveryBody } from './parse-body.ts';
import { prepareLead } from './prepare-lead.ts';
import { rejected, type DeliveryResult } from './result.ts';
import { deliverSchedulerEvent } from './scheduler-event.ts';
import { writeDelivery } from './write-delivery.ts';

/** What the route hands over of a request, once the sender is authenticated. */
export interface DeliveryRequest {
  rawBody: Buffer | undefined;
  contentType: string | undefined;
  idempotencyHeader: string | string[] | undefined;
  signatureHeader: string | string[] | undefined;
}

/**
 * One delivery, after authentication: parse → (a scheduler event goes its own way) → map →
 * Listen, or the checks a live delivery must pass → one transaction. The checks run in the
 * contract's order: JSON → name → idempotency key (docs/sender-contract.md, "Errors").
 */
export async function deliver(
  db: Database,
  source: AuthenticatedSource,
  request: DeliveryRequest,
): Promise<DeliveryResult> {
  const parsed = parseDeliveryBody(request.rawBody, request.contentType);
  if (!parsed.ok) return rejected('INVALID_JSON', parsed.details);
  const body = parsed.body;

  const event = parseBookingEvent(body);
  if (event) return deliverSchedulerEvent(db, source, event, { body, ...request });

  const lead = prepareLead(body, source.agent_timezone);
  if (lead.control.listen) return recordListenSample(db, source, body, lead);
  if (!lead.hasName) return rejected('MISSING_NAME');
  const key = parseIdempotencyKey(request.idempotencyHeader, lead.control.idempotency_key);
  if (!key.ok) return rejected('INVALID_IDEMPOTENCY_KEY', key.details);

  return writeDelivery(db, source, {
    lead,
    replayKey: key.key ?? null,
    leadKey: key.key ?? null,
    externalId: null,
    agenda: lead.appointment ? { kind: 'book' } : null,
    meeting: null,
    scheduler: null,
  });
}
