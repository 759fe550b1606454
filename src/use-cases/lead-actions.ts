import { markDoNotContact } from '../automations/do-not-contact.ts';
import { recordCallOutcomeIn, type CallResult } from '../automations/dial-queue.ts';
import type { Database, Queryable } from '../db/index.ts';
import { changeLead, lockLeadFor, type LeadTarget, type LockedLead } from '../leads/lead-changes.ts';
import { canChangeStatus, STATUS_CHANGES, type CallOutcome, type LeadStatus } from '../leads/lead-status.ts';
import { enqueue } from '../outbox/enqueue.ts';
import type { AgentAction } from '../outbox/topics.ts';

/** What an agent does to a lead, from the console or the admin API. */
export type LeadAction =
  | { kind: 'status'; status: LeadStatus }
  | { kind: 'note'; note: string }
  | { kind: 'call_outcome'; outcome: CallOutcome }
  | { kind: 'do_not_contact' };

export type ActionResult =
  | {
      ok: true;
      lead_id: string;
      agent_id: string;
      status: LeadStatus;
      status_from: LeadStatus;
      call: CallResult | null;
    }
  | { ok: false; code: 'LEAD_NOT_FOUND' | 'TASK_NOT_FOUND' | 'STATUS_NOT_ALLOWED'; details?: string };

/**
 * One action on a lead, told as a story in one transaction: lock the lead, do the action (its
 * history line written with it), and write the `lead.updated` message the agent's CRM receives.
 * A refusal (no such lead, a status change the table does not allow) writes nothing.
 */
export async function actOnLead(
  db: Database,
  target: LeadTarget,
  action: LeadAction,
  now: Date,
): Promise<ActionResult> {
  return db.withTransaction(async (tx) => {
    const lead = await lockLeadFor(tx, target);
    if (!lead) return { ok: false, code: 'task_id' in target ? 'TASK_NOT_FOUND' : 'LEAD_NOT_FOUND' };
    const done = await perform(tx, lead, target, action, now);
    if (!done.ok) return done;
    await enqueue(tx, lead.agent_id, [
      {
        topic: 'lead.updated',
        payload: {
          lead_id: lead.lead_id,
          source_id: lead.source_id,
          status: done.status,
          status_from: lead.status,
          changed_fields: done.changed,
          ...(await bookedAppointment(tx, lead)),
          action: done.action,
        },
      },
    ]);
    return {
      ok: true,
      lead_id: lead.lead_id,
      agent_id: lead.agent_id,
      status: done.status,
      status_from: lead.status,
      call: done.call,
    };
  });
}

type Performed =
  | { ok: true; status: LeadStatus; changed: string[]; action: AgentAction; call: CallResult | null }
  | Extract<ActionResult, { ok: false }>;

async function perform(
  tx: Queryable,
  lead: LockedLead,
  target: LeadTarget,
  action: LeadAction,
  now: Date,
): Promise<Performed> {
  switch (action.kind) {
    case 'status': {
      if (!canChangeStatus(lead.status, action.status)) {
        const allowed = STATUS_CHANGES[lead.status];
        return {
          ok: false,
          code: 'STATUS_NOT_ALLOWED',
          details: `A ${lead.status} lead can become ${allowed.join(', ')}; Scheduled and Canceled follow its appointments`,
        };
      }
      const done = await changeLead(tx, lead, { status: action.status, event: 'status_changed' }, now);
      return { ok: true, ...done, action: { kind: 'status' }, call: null };
    }
    case 'note': {
      const done = await changeLead(tx, lead, { event: 'note', details: { note: action.note } }, now);
      return { ok: true, ...done, action: { kind: 'note', note: action.note }, call: null };
    }
    case 'call_outcome': {
      const on = 'task_id' in target ? { task_id: target.task_id } : { lead_id: lead.lead_id };
      const call = await recordCallOutcomeIn(tx, lead, on, action.outcome, now);
      if (!call) return { ok: false, code: 'TASK_NOT_FOUND' };
      const changed = call.lead_status === lead.status ? [] : ['status'];
      return {
        ok: true,
        status: call.lead_status,
        changed,
        action: { kind: 'call_outcome', outcome: action.outcome },
        call,
      };
    }
    case 'do_not_contact': {
      const stopped = lead.phone ? await markDoNotContact(tx, lead.agent_id, lead.phone, now) : null;
      const details = { phone: lead.phone, ...(stopped ?? { texts_suppressed: 0, calls_closed: 0 }) };
      const done = await changeLead(tx, lead, { event: 'do_not_contact', details }, now);
      return { ok: true, ...done, action: { kind: 'do_not_contact' }, call: null };
    }
  }
}

/** The lead's next booked appointment, as the message names it (none: nulls). */
async function bookedAppointment(
  tx: Queryable,
  lead: LockedLead,
): Promise<{ appointment_id: string | null; scheduled_at: string | null }> {
  const { rows } = await tx.query<{ appointment_id: string; scheduled_at: Date }>(
    `SELECT appointment_id, scheduled_at FROM appointments
      WHERE agent_id = $1 AND lead_id = $2 AND status = 'booked' ORDER BY scheduled_at DESC LIMIT 1`,
    [lead.agent_id, lead.lead_id],
  );
  const booked = rows[0];
  return booked
    ? { appointment_id: booked.appointment_id, scheduled_at: new Date(booked.scheduled_at).toISOString() }
    : { appointment_id: null, scheduled_at: null };
}
