import type { LeadStatus } from '../leads/lead-status.ts';
import { contactRule, nextAllowedInstant } from './contact-window.ts';
import { renderText } from './sms-template.ts';
import type { ContactRule } from './tables/calling-hours.ts';

/** What a lead event asks of the agent's follow-up: a call task, and maybe a first text. */
export interface FollowUpInput {
  topic: string;
  status: LeadStatus | string;
  phone: string | null;
  first_name: string | null;
  state: string | null;
  /** The prospect's zone (told or inferred), for the calling hours and the appointment time. */
  zone: string;
  sms_consent: boolean;
  appointment: { scheduled_at: string } | null;
  opted_out: boolean;
  /** Texts from this agent to this number in the last 24 hours. */
  texts_last_24h: number;
  agent_name: string;
  template: string | null;
  now: Date;
}

export interface FollowUp {
  callTask: boolean;
  text: { send_at: Date; body: string } | { skipped: string };
}

/**
 * Speed to lead, decided without I/O (docs/decisions/0040-texts-and-call-tasks.md): a new lead with a phone
 * goes into the agent's dial queue; a text goes out only with explicit SMS consent, never to an
 * opted-out number, never twice in 24 hours (so never past a state's daily cap), and only inside the
 * prospect's calling hours — outside them it waits for the next allowed minute. A lead that is
 * Canceled (a scheduler's cancel) is followed up by nobody.
 */
export function planFollowUp(
  i: FollowUpInput,
  allowedAt: (now: Date, zone: string, rule: ContactRule) => Date = nextAllowedInstant,
): FollowUp {
  const isLead = i.topic === 'lead.created' || i.topic === 'lead.updated';
  const callTask = i.topic === 'lead.created' && i.phone !== null && i.status !== 'Canceled';
  const skip = (reason: string): FollowUp => ({ callTask, text: { skipped: reason } });
  if (!isLead || i.status === 'Canceled') return skip('not a lead to follow up');
  if (!i.phone) return skip('no phone');
  if (!i.sms_consent) return skip('no SMS consent');
  if (i.opted_out) return skip('opted out');
  const rule = contactRule(i.state);
  // One text per number in 24 hours: below every state's daily cap (`maxPer24h`, at least 3).
  if (i.texts_last_24h > 0) return skip('texted in the last 24 hours');
  return {
    callTask,
    text: {
      send_at: allowedAt(i.now, i.zone, rule),
      body: renderText(i.template, {
        agent_name: i.agent_name,
        first_name: i.first_name,
        appointment: i.appointment ? { scheduled_at: i.appointment.scheduled_at, zone: i.zone } : null,
      }),
    },
  };
}
