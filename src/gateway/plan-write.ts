import { DateTime } from 'luxon';
import { isSuperseded, planAgenda, type AgendaPlan } from '../appointments/transitions.ts';
import { consentEvidence } from '../leads/consent.ts';
import { statusAfterAgenda, type LeadStatus } from '../leads/lead-status.ts';
import { mergeLead, type MergeResult, type StoredLead } from '../leads/merge-lead.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import type { AgendaRead, AgendaWrite, Found, LiveDelivery, WritePlan } from './live-delivery.ts';
import { appointmentMessages } from './outbox-messages.ts';
import { eventLogLine, historyEntries, leadMessage, type Written } from './plan-records.ts';
import type { PreparedLead } from './prepare-lead.ts';
import type { DeliveredLead } from './result.ts';

export type { AgendaRead, LiveDelivery, WritePlan } from './live-delivery.ts';

/**
 * The agenda a delivery finds when nothing it names is stored: a new contact's, with the
 * appointment it asks for (if any) under a fresh id. What the one-statement path assumes, and
 * the database confirms in that statement.
 */
export function emptyAgenda(d: LiveDelivery, appointmentId: string): AgendaRead {
  const wanted = d.agenda?.kind === 'cancel' ? d.meeting : d.lead.appointment;
  const incoming = wanted
    ? { appointment_id: appointmentId, scheduled_at: wanted.scheduled_at, external_id: d.externalId }
    : null;
  return {
    named: null,
    booked: [],
    incoming,
    replaced: null,
    replacement: null,
    facts: incoming ? [incoming] : [],
  };
}

/**
 * Decides a live delivery from what the database holds: merge or create, the agenda changes, the
 * lead's status, its history, the scheduler's event-log line, the purchase and the outbox
 * messages. Pure.
 */
export function planWrite(source: AuthenticatedSource, delivery: LiveDelivery, found: Found): WritePlan {
  const { stored, agenda } = found;
  const d = stored || !delivery.leadIfNew ? delivery : { ...delivery, lead: delivery.leadIfNew };
  const leadId = stored?.lead_id ?? found.newLeadId;
  const plan = d.agenda ? planAgenda(d.agenda, agenda) : { changes: [], subject: null, otherBooked: false };
  // A scheduler event about an invitee its reschedule already replaced is older news than the
  // lead: it closes the old appointment (history, event log) and leaves the lead as it is.
  const superseded = stored !== null && d.scheduler !== null && isSuperseded(agenda);
  const merge = stored
    ? {
        from: stored.status,
        result: superseded ? unchanged(stored) : mergeInto(stored, d.lead, source.agent_timezone),
      }
    : null;
  const status =
    superseded && stored
      ? stored.status
      : statusAfterAgenda(d.agenda, merge?.result.status ?? d.lead.status, plan);
  const consent = consentEvidence(d.lead.fields, source.source_id);
  const body_format = d.lead.format;
  const routing = found.routed?.routing ?? null;
  const w: Written = { leadId, merge, status, plan, superseded, routing };
  const result = {
    kind: merge ? ('merged' as const) : ('created' as const),
    lead: deliveredLead(source, d, leadId, status),
  };
  return {
    leadId,
    lead: merge
      ? superseded
        ? null
        : { op: 'update', row: { ...merge.result, status, consent, body_format } }
      : {
          op: 'insert',
          row: {
            agent_id: source.agent_id,
            source_id: source.source_id,
            status,
            fields: d.lead.fields,
            custom_fields: d.lead.custom_fields,
            idempotency_key: d.leadKey,
            consent,
            body_format,
            routing,
            claim_due_at: found.routed?.claim_due_at ?? null,
          },
        },
    agenda: agendaWrites(source, d, leadId, plan),
    history: historyEntries(source, d, w),
    eventLog: d.scheduler ? eventLogLine(source, d.scheduler, d.agenda, w) : null,
    purchase: d.scheduler
      ? null
      : {
          agent_id: source.agent_id,
          lead_id: leadId,
          source_id: source.source_id,
          price_cents: source.terms.price_cents,
          billable: found.bill?.billable ?? true,
          reason: found.bill?.reason ?? null,
        },
    messages: [
      ...(superseded ? [] : [leadMessage(source, d, w, agenda)]),
      ...appointmentMessages(plan.changes, {
        lead_id: leadId,
        source_id: source.source_id,
        appointments: agenda.facts,
        reason: d.scheduler?.event.cancellation?.reason ?? null,
      }),
    ],
    result,
  };
}

/** The stored lead as it is: what a superseded event "merges". */
function unchanged(stored: StoredLead): MergeResult {
  return { fields: stored.fields, custom_fields: stored.custom_fields, status: stored.status, changes: {} };
}

function mergeInto(stored: StoredLead, lead: PreparedLead, agentTimezone: string): MergeResult {
  const today = DateTime.now().setZone(agentTimezone).toISODate() ?? '';
  return mergeLead(
    stored,
    { fields: lead.fields, custom_fields: lead.custom_fields, hasAppointment: lead.appointment !== null },
    today,
  );
}

/** The planned agenda changes as rows; a new appointment carries the links the sender put in custom_fields. */
function agendaWrites(
  source: AuthenticatedSource,
  d: LiveDelivery,
  leadId: string,
  plan: AgendaPlan,
): AgendaWrite[] {
  return plan.changes.map((change): AgendaWrite => {
    if (change.op === 'update')
      return { op: 'update', appointment_id: change.appointment_id, status: change.to };
    const time = d.agenda?.kind === 'cancel' ? d.meeting : d.lead.appointment;
    if (!time) throw new Error('an appointment to insert without its time');
    const text = (key: string) => {
      const value = d.lead.custom_fields[key];
      return typeof value === 'string' ? value : null;
    };
    const setter = d.lead.fields.setter_dialer_name;
    return {
      op: 'insert',
      ...(change.continues ? { continues: change.continues } : {}),
      row: {
        ...time,
        agent_id: source.agent_id,
        appointment_id: change.appointment_id,
        lead_id: leadId,
        status: change.status,
        setter_dialer_name: typeof setter === 'string' ? setter : null,
        join_url: text('join_url'),
        cancel_url: text('cancel_url'),
        reschedule_url: text('reschedule_url'),
        external_id: d.externalId,
        ends_at: endOf(time.scheduled_at, text('appointment_end_time')),
      },
    };
  });
}

/** The longest meeting a booking's end time may make: longer is taken for a mistake. */
const LONGEST_MEETING_MS = 24 * 3_600_000;

/** When the booking says the meeting ends, if that is after its start and within a day of it. */
function endOf(start: string, end: string | null): string | null {
  const [from, to] = [Date.parse(start), end === null ? NaN : Date.parse(end)];
  return to > from && to - from <= LONGEST_MEETING_MS ? new Date(to).toISOString() : null;
}

function deliveredLead(
  source: AuthenticatedSource,
  d: LiveDelivery,
  leadId: string,
  status: LeadStatus,
): DeliveredLead {
  return {
    lead_id: leadId,
    agent_id: source.agent_id,
    status,
    appointment: d.lead.appointment,
    auto_sync_enabled: source.auto_sync_enabled,
    warnings: d.lead.warnings,
    ...(d.agenda?.kind === 'cancel' ? { closed: d.agenda.as } : {}),
  };
}
