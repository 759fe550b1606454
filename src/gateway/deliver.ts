import { parseBookingEvent } from '../booking-events/parse-event.ts';
import type { Database } from '../db/index.ts';
import type { ErrorCode } from '../errors.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency-key.ts';
import { recordListenSample } from './listen.ts';
import { readDeliveryBody } from './parse-body.ts';
import { keepRefused, type WarningLog } from './refused-sample.ts';
import { rejected, unavailable, type DeliveryResult } from './result.ts';
import { deliverSchedulerEvent } from './scheduler-event.ts';
import { UNCONFIRMED, type SourceClaim, type Unconfirmed } from './source-directory.ts';
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
  /** The database's word on the request's token now (source-directory.ts); null: no longer valid. */
  confirm(): Promise<SourceClaim | null>;
}

/**
 * One delivery, after authentication. When the source came from this process's memory, a live
 * lead's write checks the token itself; any other step asks for the database's word first
 * (UNCONFIRMED), and the delivery is made again with what the database says — a revoked token is
 * refused 401 on its very next request.
 */
export async function deliver(
  db: Database,
  claim: SourceClaim,
  request: DeliveryRequest,
): Promise<DeliveryResult> {
  const first = await deliverAs(db, claim, request);
  if (first.kind !== UNCONFIRMED.kind) return first;
  const fresh = await request.confirm();
  if (!fresh) return rejected('INVALID_SOURCE_TOKEN');
  const second = await deliverAs(db, fresh, request);
  // The source changed again between the database's answer and the write: a retry will do.
  return second.kind === UNCONFIRMED.kind ? unavailable() : second;
}

/**
 * parse → (a scheduler event goes its own way) → map with the source's rules → Listen, or the
 * checks a live delivery must pass → the write. The checks run in the contract's order: JSON →
 * name → idempotency key (docs/sender-contract.md, "Errors"); a lead refused by one of them is
 * kept as a sample for the agent, with the same answer.
 */
async function deliverAs(
  db: Database,
  claim: SourceClaim,
  request: DeliveryRequest,
): Promise<DeliveryResult | Unconfirmed> {
  const { source } = claim;
  // A step whose writes do not check the token themselves runs only on the database's word.
  const confirmed = <T>(step: () => Promise<T>): Promise<T | Unconfirmed> =>
    claim.confirmed ? step() : Promise.resolve(UNCONFIRMED);
  const parsed = await readDeliveryBody(request.rawBody, request.contentType);
  if (!parsed.ok && parsed.code === 'PAYLOAD_TOO_LARGE')
    return confirmed(async () => rejected(parsed.code, parsed.details));
  if (!parsed.ok)
    return confirmed(() => keepRefused(db, source, request, rejected(parsed.code, parsed.details)));
  const body = parsed.body;

  const event = parseBookingEvent(body);
  if (event) return confirmed(() => deliverSchedulerEvent(db, claim, event, { body, ...request }));

  const lead = prepareSourceLead(body, source);
  if (lead.control.listen) return confirmed(() => recordListenSample(db, source, body, lead));
  const refuse = (code: ErrorCode, details?: string) =>
    confirmed(() => keepRefused(db, source, request, rejected(code, details), { body, lead }));
  if (!lead.hasName) return refuse('MISSING_NAME');
  const key = parseIdempotencyKey(request.idempotencyHeader, lead.control.idempotency_key);
  if (!key.ok) return refuse('INVALID_IDEMPOTENCY_KEY', key.details);

  return writeDelivery(db, claim, {
    lead,
    replayKey: key.key ?? null,
    leadKey: key.key ?? null,
    externalId: null,
    agenda: lead.appointment ? { kind: 'book' } : null,
    meeting: null,
    scheduler: null,
  });
}
