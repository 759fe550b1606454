import type { Database, Queryable } from '../db/index.ts';
import { jobQueue } from '../jobs/queue.ts';
import type { JobKind } from '../jobs/runner.ts';
import { stopCadences, stopReasonOfStatus, type CadenceStopReason } from '../leads/cadence-stop.ts';
import { contactRule, nextAllowedInstant } from './contact-window.ts';
import { addCallTasks, type NewCallTask } from './dial-queue.ts';
import { getFollowUpLeads, type FollowUpLead } from './follow-up-leads.ts';
import { leadZone } from './lead-zone.ts';
import { screenContact } from './screen-contact.ts';
import { renderText } from './sms-template.ts';
import { scheduleTexts, type NewText } from './sms-repository.ts';
import type { ContactDecision } from '../screening/decide.ts';

/** A step a worker claimed, with what it needs of its plan and its agent. */
export interface ClaimedStep {
  agent_id: string;
  lead_id: string;
  step_no: number;
  step_id: string;
  action: 'call' | 'text';
  body: string | null;
  attempts: number;
  run_status: string;
  agent_name: string;
  agent_timezone: string;
}

/** The steps' queue (src/jobs): a step is due at its `due_at`; `doing` while a worker holds it. */
export const stepJobs = jobQueue<ClaimedStep>({
  table: 'cadence_steps',
  key: [
    ['agent_id', 'uuid'],
    ['lead_id', 'uuid'],
    ['step_no', 'int'],
  ],
  waiting: 'pending',
  running: 'doing',
  dueAt: 'due_at',
  error: 'reason',
  claimWith: {
    from: 'cadence_runs r, agents a',
    on: 'r.agent_id = j.agent_id AND r.lead_id = j.lead_id AND a.agent_id = j.agent_id',
  },
  returning: `j.agent_id, j.lead_id, j.step_no, j.step_id, j.action, j.body, j.attempts,
              r.status AS run_status, a.name AS agent_name, a.timezone AS agent_timezone`,
});

const settleSteps = stepJobs.settler({
  set: (clock) => `done_at = CASE WHEN x.status IN ('done', 'skipped') THEN ${clock} ELSE j.done_at END`,
});

/** What a round of steps came to. */
export interface StepRound {
  calls: number;
  texts: number;
  skipped: number;
  moved: number;
  stopped: number;
}

/** What one step comes to: done (its call task or text made), skipped, moved later, or its plan stopped. */
type StepOutcome =
  | { kind: 'call'; task: NewCallTask }
  | { kind: 'text'; text: NewText }
  | { kind: 'skipped'; reason: string }
  | { kind: 'moved'; due: Date; reason: string }
  | { kind: 'stop'; reason: CadenceStopReason };

const DAY_MS = 86_400_000;

/**
 * A due step, decided without I/O: a call puts a task in the dial queue; a text is written to the
 * texts' queue with its placeholders filled, to go out at once (the sender screens it again just
 * before sending). A text outside the prospect's calling hours, or past the state's texts in 24
 * hours, moves later; a step screening forbids is skipped with the reason; a lead closed or booked
 * since ends its plan.
 */
export function decideStep(
  step: ClaimedStep,
  lead: FollowUpLead,
  decision: ContactDecision,
  recent: { n: number; oldest: Date | null },
  now: Date,
): StepOutcome {
  const stop = stopReasonOfStatus(String(lead.status));
  if (stop) return { kind: 'stop', reason: stop };
  const phone = typeof lead.phone === 'string' && lead.phone !== '' ? lead.phone : null;
  if (!phone) return { kind: 'skipped', reason: 'no phone' };
  const base = { agent_id: step.agent_id, lead_id: step.lead_id, message_id: step.step_id };
  if (step.action === 'call') {
    if (decision.call) return { kind: 'skipped', reason: decision.call };
    return { kind: 'call', task: base };
  }
  if (lead.sms_consent !== true) return { kind: 'skipped', reason: 'no SMS consent' };
  if (decision.text) return { kind: 'skipped', reason: decision.text };
  const state = typeof lead.state === 'string' ? lead.state : null;
  const rule = contactRule(state);
  const zone = leadZone(lead, step.agent_timezone);
  if (rule.maxPer24h !== null && recent.n >= rule.maxPer24h && recent.oldest) {
    const due = nextAllowedInstant(new Date(recent.oldest.getTime() + DAY_MS), zone, rule);
    return { kind: 'moved', due, reason: `${state ?? ''} allows ${rule.maxPer24h} texts in 24 hours`.trim() };
  }
  const allowed = nextAllowedInstant(now, zone, rule);
  if (allowed.getTime() > now.getTime())
    return { kind: 'moved', due: allowed, reason: 'outside calling hours' };
  const body = renderText(step.body ?? '', {
    agent_name: step.agent_name,
    first_name: typeof lead.first_name === 'string' ? lead.first_name : null,
    appointment: null,
  });
  return { kind: 'text', text: { ...base, to_phone: phone, body, send_at: now } };
}

/**
 * Cadence steps as a kind of job: a round claims the due steps, decides each (`decideStep`) on the
 * lead as it is now, and writes everything in one transaction — the call tasks and texts (each
 * keyed by its step, so made once even if two workers did the same step), the steps' outcomes,
 * the plans stopped, and the plans whose last step this was completed.
 */
export function cadenceKind(settings: { batch: number }): JobKind<ClaimedStep, StepRound> {
  return {
    name: 'cadences',
    queue: stepJobs,
    batch: settings.batch,
    handle: (db, steps, at) => doSteps(db, steps, at ?? new Date()),
  };
}

async function doSteps(db: Database, claimed: ClaimedStep[], now: Date): Promise<StepRound> {
  const round: StepRound = { calls: 0, texts: 0, skipped: 0, moved: 0, stopped: 0 };
  if (claimed.length === 0) return round;
  // A step of a plan stopped meanwhile was canceled with it; one that slipped through ends here.
  const steps = claimed.filter((s) => s.run_status === 'active');
  const leads = await getFollowUpLeads(
    db,
    steps.map((s) => s.lead_id),
  );
  const present = steps.flatMap((s) => {
    const lead = leads.get(s.lead_id);
    return lead ? [{ step: s, lead }] : [];
  });
  const [decisions, recent] = await Promise.all([
    screenContact(
      db,
      present.map((p) => p.lead),
      now,
    ),
    recentTexts(
      db,
      present.filter((p) => p.step.action === 'text'),
      now,
    ),
  ]);
  const tasks: NewCallTask[] = [];
  const texts: NewText[] = [];
  const outcomes: Array<{ job: ClaimedStep; status: string; error: string | null; due?: Date }> = [];
  const stops = new Map<CadenceStopReason, Array<{ agent_id: string; lead_id: string }>>();
  present.forEach(({ step, lead }, i) => {
    const decision = decisions[i] ?? { text: null, call: null };
    const phone = typeof lead.phone === 'string' ? lead.phone : '';
    const outcome = decideStep(step, lead, decision, recent.get(`${step.agent_id} ${phone}`) ?? NONE, now);
    switch (outcome.kind) {
      case 'call':
        tasks.push(outcome.task);
        outcomes.push({ job: step, status: 'done', error: null });
        round.calls++;
        break;
      case 'text':
        texts.push(outcome.text);
        outcomes.push({ job: step, status: 'done', error: null });
        round.texts++;
        break;
      case 'skipped':
        outcomes.push({ job: step, status: 'skipped', error: outcome.reason });
        round.skipped++;
        break;
      case 'moved':
        outcomes.push({ job: step, status: 'pending', error: outcome.reason, due: outcome.due });
        round.moved++;
        break;
      case 'stop': {
        const same = stops.get(outcome.reason) ?? [];
        same.push({ agent_id: step.agent_id, lead_id: step.lead_id });
        stops.set(outcome.reason, same);
        round.stopped++;
        break;
      }
    }
  });
  const ended = claimed.filter((s) => s.run_status !== 'active' || !leads.has(s.lead_id));
  await db.withTransaction(async (tx) => {
    await addCallTasks(tx, tasks);
    await scheduleTexts(tx, texts);
    await settleSteps(
      tx,
      [...outcomes, ...ended.map((job) => ({ job, status: 'canceled', error: 'cadence ended' }))],
      {},
      now,
    );
    for (const [reason, of] of stops) await stopCadences(tx, of, reason, now);
    await completeFinished(tx, claimed, now);
  });
  return round;
}

const NONE = { n: 0, oldest: null };

/** The texts each number had from its agent in the last 24 hours: how many, and the oldest's time. */
async function recentTexts(
  db: Queryable,
  steps: ReadonlyArray<{ step: ClaimedStep; lead: FollowUpLead }>,
  now: Date,
): Promise<Map<string, { n: number; oldest: Date | null }>> {
  const numbers = steps.flatMap(({ step, lead }) =>
    typeof lead.phone === 'string' ? [{ agent_id: step.agent_id, phone: lead.phone }] : [],
  );
  if (numbers.length === 0) return new Map();
  const { rows } = await db.query<{ agent_id: string; phone: string; n: number; oldest: Date | null }>(
    `SELECT q.agent_id, q.phone, t.n, t.oldest
       FROM (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[])) AS q (agent_id, phone)
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS n, min(m.created_at) AS oldest FROM sms_messages m
          WHERE m.agent_id = q.agent_id AND m.to_phone = q.phone AND m.created_at > $3
            AND m.status IN ('scheduled', 'sending', 'sent')) AS t`,
    [
      numbers.map((n) => n.agent_id),
      numbers.map((n) => n.phone),
      new Date(now.getTime() - DAY_MS).toISOString(),
    ],
  );
  return new Map(
    rows.map((r) => [`${r.agent_id} ${r.phone}`, { n: r.n, oldest: r.oldest ? new Date(r.oldest) : null }]),
  );
}

/** Plans of these steps with no step left to do: completed. */
async function completeFinished(tx: Queryable, steps: readonly ClaimedStep[], now: Date): Promise<void> {
  await tx.query(
    `UPDATE cadence_runs r SET status = 'completed', ended_at = $3
       FROM unnest($1::uuid[], $2::uuid[]) AS t (agent_id, lead_id)
      WHERE r.agent_id = t.agent_id AND r.lead_id = t.lead_id AND r.status = 'active'
        AND NOT EXISTS (SELECT FROM cadence_steps s WHERE s.agent_id = r.agent_id AND s.lead_id = r.lead_id
                          AND s.status IN ('pending', 'doing'))`,
    [steps.map((s) => s.agent_id), steps.map((s) => s.lead_id), now.toISOString()],
  );
}
