import { parseBookingEvent } from '../booking-events/parse-event.ts';
import type { Database } from '../db/index.ts';
import type { ErrorCode } from '../errors.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency-key.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { recordListenSample } from './listen.ts';
import { readDeliveryBody } from './parse-body.ts';
import { keepRefused, type WarningLog } from './refused-sample.ts';
import { rejected, type DeliveryResult } from './result.ts';
import { deliverSchedulerEvent } from './scheduler-event.ts';
import { prepareSourceLead } from './source-rules.ts';
import { writeDelivery } from './write-delivery.ts';

/** What the route hands over of a request, once the sender is authenticated. */
export interface DeliveryRequest {
  rawBody: Buffer | undefined;
  contentType: string | undefined;
  idempotencyHeader: string | string[] | undefined;
  signatureHeader: string | string[] | undefined;
  /** Where a refused delivery that could not be kept as a sample is reported. */
  log: WarningLog;
}

/**
 * One delivery, after authentication: parse → (a scheduler event goes its own way) → map with the
 * source's rules → Listen, or the checks a live delivery must pass → one transaction. The checks
 * run in the contract's order: JSON → name → idempotency key (docs/sender-contract.md, "Errors");
 * a lead refused by one of them is kept as a sample for the agent, with the same answer.
 */
export async function deliver(
  db: Database,
  source: AuthenticatedSource,
  request: DeliveryRequest,
): Promise<DeliveryResult> {
  const parsed = await readDeliveryBody(request.rawBody, request.contentType);
  if (!parsed.ok && parsed.code === 'PAYLOAD_TOO_LARGE') return rejected(parsed.code, parsed.details);
  if (!parsed.ok) return keepRefused(db, source, request, rejected(parsed.code, parsed.details));
  const body = parsed.body;

  const event = parseBookingEvent(body);
  if (event) return deliverSchedulerEvent(db, source, event, { body, ...request });

  const lead = prepareSourceLead(body, source);
  if (lead.control.listen) return recordListenSample(db, source, body, lead);
  const refuse = (code: ErrorCode, details?: string) =>
    keepRefused(db, source, request, rejected(code, details), { body, lead });
  if (!lead.hasName) return refuse('MISSING_NAME');
  const key = parseIdempotencyKey(request.idempotencyHeader, lead.control.idempotency_key);
  if (!key.ok) return refuse('INVALID_IDEMPOTENCY_KEY', key.details);

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
