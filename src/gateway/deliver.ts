import { parseBookingEvent } from '../booking-events/parse-event.ts';
import type { ErrorCode } from '../errors.ts';
import { bodyDigest } from '../idempotency/body-digest.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency-key.ts';
import { sanitizeJson } from '../ingest/sanitize.ts';
import type { JsonObject } from '../json.ts';
import type { Authenticated } from './authenticate.ts';
import type { Resend } from './exact-retries.ts';
import type { Gateway } from './gateway.ts';
import { recordListenSample } from './listen.ts';
import { readDeliveryBody } from './parse-body.ts';
import { keepRefused, type WarningLog } from './refused-sample.ts';
import {
  isRefusedByTerms,
  MISSING_NAME_DETAILS,
  rejected,
  unavailable,
  type DeliveryResult,
  type Rejected,
} from './result.ts';
import { deliverSchedulerEvent } from './scheduler-event.ts';
import { onDatabaseWord, UNCONFIRMED, type SourceClaim, type Unconfirmed } from './source-directory.ts';
import { prepareSourceLead } from './source-rules.ts';
import { failedWrite } from './write-delivery.ts';
import { leadDelivery } from './live-delivery.ts';
import { checkGoogleKey } from './google-key.ts';
import { readMetaEnvelope } from './meta-envelope.ts';
import { queueMetaEnvelope } from './meta-queue.ts';

/** What the route hands over of a request, once the sender is authenticated. */
export interface DeliveryRequest {
  rawBody: Buffer | undefined;
  contentType: string | undefined;
  idempotencyHeader: string | string[] | undefined;
  signatureHeader: string | string[] | undefined;
  /** Meta's `X-Hub-Signature-256`. */
  hubSignatureHeader: string | string[] | undefined;
  /** Where a refused delivery that could not be kept as a sample is reported. */
  log: WarningLog;
  /** The database's word on the request's sender now (authenticate.ts `reauthenticate`). */
  confirm(): Promise<Authenticated | Rejected>;
}

/**
 * One delivery, after authentication. An exact resend of a delivery that used its key is answered
 * from the stored response (exact-retries.ts). When the source came from this process's memory, a
 * live lead's write checks the token itself, and so do a scheduler booking's, and the inserts of a
 * Listen sample and of a refused delivery's sample; any other step asks for the database's word first
 * (UNCONFIRMED), and the delivery is made again with what the database says — a revoked token is
 * refused 401 on its very next request.
 */
export async function deliver(
  gateway: Gateway,
  claim: SourceClaim,
  request: DeliveryRequest,
): Promise<DeliveryResult> {
  const resend = resendOf(request);
  if (resend) {
    try {
      const answer = await gateway.exactRetries.answer(claim, resend);
      if (answer) return { kind: 'replayed', answer, sameBody: true };
    } catch (err) {
      return failedWrite(err);
    }
  }
  const first = await deliverAs(gateway, claim, request, resend);
  if (first.kind !== UNCONFIRMED.kind) return first;
  const fresh = await request.confirm();
  if (fresh.kind === 'rejected') return fresh;
  const second = await deliverAs(gateway, fresh.claim, request, resend);
  // The source changed again between the database's answer and the write: a retry will do.
  return second.kind === UNCONFIRMED.kind ? unavailable() : second;
}

/**
 * parse → (a scheduler event goes its own way) → map with the source's rules → Listen, or the
 * checks a live delivery must pass → the write. The checks run in the contract's order: JSON →
 * name → idempotency key → the source's acceptance rules and caps (in the write) (docs/sender-contract.md,
 * "Errors"); a lead refused by one of them is kept as a sample for the agent, with the same answer.
 */
async function deliverAs(
  gateway: Gateway,
  claim: SourceClaim,
  request: DeliveryRequest,
  resend: Resend | null,
): Promise<DeliveryResult | Unconfirmed> {
  const { source } = claim;
  const parsed = await readDeliveryBody(request.rawBody, request.contentType);
  if (!parsed.ok && parsed.code === 'PAYLOAD_TOO_LARGE')
    return onDatabaseWord(claim, async () => rejected(parsed.code, parsed.details));
  if (!parsed.ok) return keepRefused(gateway.samples, claim, request, rejected(parsed.code, parsed.details));
  // Meta's envelope announces leads and holds none: they are fetched (src/meta-fetch).
  const announced = readMetaEnvelope(parsed.body);
  if (announced) return queueMetaEnvelope(gateway, claim, announced, request);
  const google = checkGoogleKey(parsed.body, source.google_key_hash);
  if (!google.ok)
    return onDatabaseWord(claim, async () =>
      rejected('INVALID_SIGNATURE', 'google_key is missing or does not match'),
    );
  // A Google lead form's key is a credential: it is kept nowhere, not even in a refused sample.
  const body = google.body;
  if (google.scrubbed) request = { ...request, rawBody: Buffer.from(JSON.stringify(body)) };

  const event = parseBookingEvent(body);
  // A scheduler event's writes check the token themselves, or wait for the database's word. What
  // PostgreSQL cannot store (a NUL, a lone surrogate) is taken out of the event first: the event
  // is kept whole and its invitee's URI is a key, so one such character lost the booking with a 500.
  if (event) {
    const stored = sanitizeJson(body) as JsonObject;
    return deliverSchedulerEvent(gateway, claim, parseBookingEvent(stored) ?? event, {
      body: stored,
      ...request,
    });
  }

  const lead = prepareSourceLead(body, source, Date.now());
  // What reading the body changed (a key sent twice, bytes that were not UTF-8) comes first.
  lead.warnings.unshift(...parsed.warnings);
  // A Listen sample's insert checks the token itself, as a live lead's write does.
  if (lead.control.listen) return recordListenSample(gateway, claim, body, lead);
  // So does a refused delivery's sample.
  const refuse = (code: ErrorCode, details?: string) =>
    keepRefused(gateway.samples, claim, request, rejected(code, details), { body, lead });
  if (!lead.hasName) return refuse('MISSING_NAME', MISSING_NAME_DETAILS);
  const key = parseIdempotencyKey(request.idempotencyHeader, lead.control.idempotency_key);
  if (!key.ok) return refuse('INVALID_IDEMPOTENCY_KEY', key.details);

  // The header's key wins over the body's: a resend's bytes are stored with the key it names.
  const bytes = resend && resend.key === key.key ? resend : null;
  const result = await gateway.writeDelivery(
    claim,
    leadDelivery(lead, key.key ?? null, bytes?.digest ?? null),
  );
  // A lead the source's acceptance rules or caps refuse is kept for the agent too.
  if (isRefusedByTerms(result)) return keepRefused(gateway.samples, claim, request, result, { body, lead });
  const usedByTheseBytes =
    result.kind === 'created' || result.kind === 'merged' || (result.kind === 'replayed' && result.sameBody);
  if (bytes && usedByTheseBytes) gateway.exactRetries.remember(source.source_id, bytes);
  return result;
}

/** A delivery under a well-formed `Idempotency-Key` header, with its body's digest; null otherwise. */
function resendOf(request: DeliveryRequest): Resend | null {
  if (request.idempotencyHeader === undefined) return null;
  const key = parseIdempotencyKey(request.idempotencyHeader, undefined);
  if (!key.ok || key.key === undefined) return null;
  return { key: key.key, digest: bodyDigest(request.contentType, request.rawBody) };
}
