import type { ResolvedAppointment } from '../appointments/schedule.ts';
import { LISTEN_MESSAGE } from '../http/contract-meta.ts';
import { LIMITS } from '../limits.ts';
import { ERRORS, errorBody, unavailableError, type ErrorBody, type ErrorCode } from '../errors.ts';
import { isSameContact, type ContactFingerprint } from '../idempotency/fingerprint.ts';
import type { FieldWarning } from '../ingest/types.ts';
import type { JsonObject } from '../json.ts';
import type { LeadStatus } from '../leads/lead-status.ts';

/**
 * Every way a delivery can end, as a value. The gateway's steps return one of these, down to the
 * route, and `toAnswer` is the one place that turns it into what the sender receives
 * (docs/sender-contract.md, "Answers").
 */
export type DeliveryResult =
  | { kind: 'created'; lead: DeliveredLead }
  | { kind: 'merged'; lead: DeliveredLead }
  /**
   * The first answer under this idempotency key, as it was stored; `sameBody`: the resend's bytes
   * are the first delivery's (idempotency/body-digest.ts).
   */
  | { kind: 'replayed'; answer: JsonObject; sameBody: boolean }
  | { kind: 'listened' }
  /** A scheduler's no-show report, or its removal, applied to a known appointment. */
  | { kind: 'no_show'; marked: boolean; lead_id: string; agent_id: string; status: LeadStatus | null }
  /** A scheduler event the gateway acknowledges and records without acting on it. */
  | { kind: 'ignored' }
  /** Meta's leadgen envelope: each lead it announced is queued to be fetched (src/meta-fetch). */
  | { kind: 'queued'; leadgenIds: string[] }
  /** Meta's subscription handshake, passed: its challenge is echoed. */
  | { kind: 'challenge'; challenge: string }
  | Rejected;

export interface Rejected {
  kind: 'rejected';
  code: ErrorCode;
  details?: string;
  /** For RATE_LIMITED: seconds until the sender may try again. */
  retryAfterSeconds?: number;
  /** What went wrong underneath, for the log only; never shown to the sender. */
  cause?: unknown;
}

/** A lead the delivery created or merged into, as the sender is told about it. */
export interface DeliveredLead {
  lead_id: string;
  agent_id: string;
  status: LeadStatus;
  /** The appointment the delivery asked for, as booked (echoed in the answer). */
  appointment: ResolvedAppointment | null;
  auto_sync_enabled: boolean;
  warnings: FieldWarning[];
  /** Set when the delivery was a scheduler's cancel: the answer says what became of the meeting. */
  closed?: 'canceled' | 'rescheduled';
}

/** What a sender refused for want of a name is told: either field will do. */
export const MISSING_NAME_DETAILS =
  'Send the contact’s name as name ("Jane Doe") or as first_name (with last_name when you have it); either will do';

/**
 * The refusals of a lead the source's terms do not take (its acceptance rules, its caps): permanent,
 * and kept as refused samples for the agent.
 */
export function isRefusedByTerms(result: { kind: string }): result is RefusedByTerms {
  const code = (result as Partial<Rejected>).code;
  return result.kind === 'rejected' && (code === 'LEAD_NOT_ACCEPTED' || code === 'SOURCE_CAP_REACHED');
}

type RefusedByTerms = Rejected & { code: 'LEAD_NOT_ACCEPTED' | 'SOURCE_CAP_REACHED' };

/** A refusal for want of a name, saying which fields carry one. */
export const missingName = (): Rejected => rejected('MISSING_NAME', MISSING_NAME_DETAILS);

export function rejected(code: ErrorCode, details?: string, extra: Partial<Rejected> = {}): Rejected {
  return { kind: 'rejected', code, ...(details !== undefined ? { details } : {}), ...extra };
}

/**
 * 503 with Retry-After: a failure that will pass (the database unreachable or restarting, the
 * process overloaded or shutting down). Nothing was stored; the same delivery, with the same key,
 * will go through.
 */
export function unavailable(cause?: unknown): Rejected {
  const seconds = LIMITS.unavailableRetryAfterSeconds;
  return rejected('SERVICE_UNAVAILABLE', unavailableError(seconds).details, {
    retryAfterSeconds: seconds,
    ...(cause !== undefined ? { cause } : {}),
  });
}

/**
 * The answer to a delivery whose idempotency key is already used: its replay, or a refusal. A
 * resend of the very bytes that used the key is the same delivery, whatever it maps to now (the
 * source's mapping rules may have changed since); other bytes are a retry when they name the same
 * contact.
 */
export function answerForUsedKey(
  used: { contact: ContactFingerprint; response: JsonObject | null; sameBody: boolean },
  fingerprint: ContactFingerprint,
): DeliveryResult {
  if (!used.sameBody && !isSameContact(used.contact, fingerprint)) return rejected('IDEMPOTENCY_KEY_REUSED');
  if (!used.response) throw new Error('idempotency key row without a response');
  return { kind: 'replayed', answer: used.response, sameBody: used.sameBody };
}

/** The success answer of a live delivery; its keys are written in this order. */
export interface SuccessAnswer {
  success: true;
  message: string;
  listen: false;
  lead_id: string;
  agent_id: string;
  status: LeadStatus;
  scheduled_at?: string;
  appointment_timezone?: string;
  schedule_type?: string;
  resubmit?: true;
  auto_sync_enabled: boolean;
  warnings?: FieldWarning[];
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** JSON, but for a handshake's challenge: text as sent. */
  body: SuccessAnswer | ErrorBody | JsonObject | string;
}

/** The sender's answer to a result. */
export function toAnswer(result: DeliveryResult): HttpAnswer {
  switch (result.kind) {
    case 'created':
    case 'merged':
      return ok(successAnswer(result));
    case 'replayed':
      return ok({ ...result.answer, idempotent_replay: true });
    case 'listened':
      return ok({ success: true, listen: true, message: LISTEN_MESSAGE });
    case 'no_show':
      return ok({
        success: true,
        message: result.marked ? 'Appointment marked no-show' : 'No-show removed',
        listen: false,
        lead_id: result.lead_id,
        agent_id: result.agent_id,
        ...(result.status ? { status: result.status } : {}),
      });
    case 'ignored':
      return ok({ success: true, message: 'Event ignored', ignored: true });
    case 'queued':
      return ok({ success: true, message: 'Leads queued', listen: false, queued: result.leadgenIds });
    case 'challenge':
      return {
        status: 200,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
        body: result.challenge,
      };
    case 'rejected':
      return {
        status: ERRORS[result.code].status,
        headers: errorHeaders(result),
        body: errorBody(result.code, result.details),
      };
  }
}

/** What a created or merged lead's answer says; also what a replay of it repeats. */
export function successAnswer(result: { kind: 'created' | 'merged'; lead: DeliveredLead }): SuccessAnswer {
  const { lead } = result;
  const appointment = lead.appointment;
  return {
    success: true,
    message: messageOf(result),
    listen: false,
    lead_id: lead.lead_id,
    agent_id: lead.agent_id,
    status: lead.status,
    ...(appointment
      ? {
          scheduled_at: appointment.scheduled_at,
          appointment_timezone: appointment.appointment_timezone,
          schedule_type: appointment.schedule_type,
        }
      : {}),
    ...(result.kind === 'merged' ? { resubmit: true as const } : {}),
    auto_sync_enabled: lead.auto_sync_enabled,
    ...(lead.warnings.length > 0 ? { warnings: lead.warnings } : {}),
  };
}

function messageOf({ kind, lead }: { kind: 'created' | 'merged'; lead: DeliveredLead }): string {
  if (lead.closed) return lead.closed === 'canceled' ? 'Appointment canceled' : 'Appointment rescheduled';
  if (kind === 'merged') return 'Lead updated';
  return lead.appointment ? 'Lead created and appointment scheduled' : 'Lead created';
}

function errorHeaders(result: Rejected): Record<string, string> {
  if (result.code === 'METHOD_NOT_ALLOWED') return { allow: 'POST' };
  if (result.retryAfterSeconds !== undefined) return { 'retry-after': String(result.retryAfterSeconds) };
  return {};
}

function ok(body: HttpAnswer['body']): HttpAnswer {
  return { status: 200, headers: {}, body };
}
