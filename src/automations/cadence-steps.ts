import type { Database, Queryable } from '../db/index.ts';
import { jobQueue } from '../jobs/queue.ts';
import type { JobKind } from '../jobs/runner.ts';
import {
  stepMessageId,
  stopCadences,
  stopReasonOfStatus,
  type CadenceStopReason,
} from '../leads/cadence-stop.ts';
import { planDueTimes, type CadenceStep } from './cadence-plan.ts';
import { versionSteps, type VersionKey } from './cadence-versions.ts';
import { contactRule, nextAllowedInstant } from './contact-window.ts';
import { addCallTasks, type NewCallTask } from './dial-queue.ts';
import { getFollowUpLeads, type FollowUpLead } from './follow-up-leads.ts';
import { leadZone } from './lead-zone.ts';
import { screenContact } from './screen-contact.ts';
import { renderText } from './sms-template.ts';
import { TEXT_WINDOW_MS, textLimitReason, textRefusal } from './follow-up.ts';
import { scheduleTexts, textsToNumberSql, type NewText } from './sms-repository.ts';
import type { ContactDecision } from '../screening/decide.ts';

/** A lead's plan a worker claimed, its next step due: what it needs of the plan, its version and its agent. */
export interface ClaimedRun {
  agent_id: string;
  lead_id: string;
  attempts: number;
  next_step: number;
  due_at: Date;
  started_at: Date;
  zone: string;
  state: string | null;
  /** What came of each step done so far. */
  steps: StepDone[];
  /** The version it follows (its steps: cadence-versions.ts). */
  cadence_agent_id: string;
  cadence_id: string;
  version: number;
  agent_name: string;
  agent_timezone: string;
}

/** What came of a step: done (its task or text made) or skipped, when it fell due and was done. */
export interface StepDone {
  status: 'done' | 'skipped';
  reason: string | null;
  due_at: string;
  at: string;
}

/**
 * The plans' queue (src/jobs): a plan is due when its next step is (`due_at`); `stepping` while a
 * worker holds it. A claim returns the version it follows and its agent's name and zone.
 */
export const runJobs = jobQueue<ClaimedRun>({
  table: 'cadence_runs',
  key: [
    ['agent_id', 'uuid'],
    ['lead_id', 'uuid'],
  ],
  waiting: 'active',
  running: 'stepping',
  dueAt: 'due_at',
  error: 'reason',
  claimWith: { from: 'agents a', on: 'a.agent_id = j.agent_id' },
  returning: `j.agent_id, j.lead_id, j.attempts, j.next_step, j.due_at, j.started_at, j.zone, j.state,
              j.steps, j.cadence_agent_id, j.cadence_id, j.version, a.name AS agent_name,
              a.timezone AS agent_timezone`,
});

/** A step's outcome over its plan's claim: the next step and when it falls due, or the plan completed. */
const settleRuns = runJobs.settler<{ next_step: number; steps: string }>({
  also: { next_step: 'int', steps: 'jsonb' },
  set: (clock) => `ended_at = CASE WHEN x.status = 'completed' THEN ${clock} ELSE j.ended_at END`,
});

/** A step that fell due, as `decideStep` reads it. */
export interface DueStep {
  agent_id: string;
  lead_id: string;
  /** The message id of the call task or text it makes (`stepMessageId`). */
  message_id: string;
  action: 'call' | 'text';
  body: string | null;
  agent_name: string;
  agent_timezone: string;
}

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

/**
 * A due step, decided without I/O: a call puts a task in the dial queue; a text is written to the
 * texts' queue with its placeholders filled, to go out at once (the sender screens it again just
 * before sending). A text outside the prospect's calling hours, or past the state's texts in 24
 * hours, moves later; a step screening forbids is skipped with the reason; a lead closed or booked
 * since ends its plan.
 */
export function decideStep(
  step: DueStep,
  lead: FollowUpLead,
  decision: ContactDecision,
  recent: { n: number; oldest: Date | null },
  now: Date,
): StepOutcome {
  const stop = stopReasonOfStatus(String(lead.status));
  if (stop) return { kind: 'stop', reason: stop };
  const phone = typeof lead.phone === 'string' && lead.phone !== '' ? lead.phone : null;
  if (!phone) return { kind: 'skipped', reason: 'no phone' };
  const base = { agent_id: step.agent_id, lead_id: step.lead_id, message_id: step.message_id };
  if (step.action === 'call') {
    if (decision.call) return { kind: 'skipped', reason: decision.call };
    return { kind: 'call', task: base };
  }
  const refused = textRefusal(lead, decision);
  if (refused) return { kind: 'skipped', reason: refused };
  const state = typeof lead.state === 'string' ? lead.state : null;
  const rule = contactRule(state);
  const zone = leadZone(lead, step.agent_timezone);
  if (rule.maxPer24h !== null && recent.n >= rule.maxPer24h && recent.oldest) {
    const due = nextAllowedInstant(new Date(recent.oldest.getTime() + TEXT_WINDOW_MS), zone, rule);
    return { kind: 'moved', due, reason: textLimitReason(state, rule.maxPer24h) };
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
 * Cadence steps as a kind of job: a round claims the plans whose next step is due, decides each
 * step (`decideStep`) on the lead as it is now, and writes everything in one transaction — the call
 * tasks and texts (each keyed by its step, so made once even if two workers did the same step),
 * each plan's next step and when it falls due (worked out from the plan's start, as at enrollment),
 * and the plans stopped.
 */
export function cadenceKind(settings: { batch: number }): JobKind<ClaimedRun, StepRound> {
  return {
    name: 'cadences',
    queue: runJobs,
    batch: settings.batch,
    handle: (db, runs, at) => doSteps(db, runs, at ?? new Date()),
  };
}

type Outcome = {
  job: ClaimedRun;
  status: string;
  error: string | null;
  due?: Date;
  next_step: number;
  steps: string;
};

async function doSteps(db: Database, runs: ClaimedRun[], now: Date): Promise<StepRound> {
  const round: StepRound = { calls: 0, texts: 0, skipped: 0, moved: 0, stopped: 0 };
  if (runs.length === 0) return round;
  const [leads, plans] = await Promise.all([
    getFollowUpLeads(
      db,
      runs.map((r) => r.lead_id),
    ),
    versionSteps(db, runs.map(versionOf)),
  ]);
  const due = runs.flatMap((run) => {
    const plan = plans(versionOf(run));
    const step = plan?.[run.next_step];
    const lead = leads.get(run.lead_id);
    return plan && step && lead ? [{ run, plan, step, lead }] : [];
  });
  const [decisions, recent] = await Promise.all([
    screenContact(
      db,
      due.map((d) => d.lead),
      now,
    ),
    recentTexts(
      db,
      due.filter((d) => d.step.action === 'text'),
      now,
    ),
  ]);
  const tasks: NewCallTask[] = [];
  const texts: NewText[] = [];
  const outcomes: Outcome[] = [];
  const stops = new Map<CadenceStopReason, Array<{ agent_id: string; lead_id: string }>>();
  due.forEach(({ run, plan, step, lead }, i) => {
    const decision = decisions[i] ?? { text: null, call: null };
    const phone = typeof lead.phone === 'string' ? lead.phone : '';
    const asked: DueStep = {
      agent_id: run.agent_id,
      lead_id: run.lead_id,
      message_id: stepMessageId(run.lead_id, run.next_step),
      action: step.action,
      body: step.body ?? null,
      agent_name: run.agent_name,
      agent_timezone: run.agent_timezone,
    };
    const outcome = decideStep(asked, lead, decision, recent.get(`${run.agent_id} ${phone}`) ?? NONE, now);
    switch (outcome.kind) {
      case 'call':
        tasks.push(outcome.task);
        outcomes.push(stepDone(run, plan, 'done', null, now));
        round.calls++;
        break;
      case 'text':
        texts.push(outcome.text);
        outcomes.push(stepDone(run, plan, 'done', null, now));
        round.texts++;
        break;
      case 'skipped':
        outcomes.push(stepDone(run, plan, 'skipped', outcome.reason, now));
        round.skipped++;
        break;
      case 'moved': {
        const same = { next_step: run.next_step, steps: JSON.stringify(run.steps) };
        outcomes.push({ job: run, status: 'active', error: outcome.reason, due: outcome.due, ...same });
        round.moved++;
        break;
      }
      case 'stop': {
        const of = stops.get(outcome.reason) ?? [];
        of.push({ agent_id: run.agent_id, lead_id: run.lead_id });
        stops.set(outcome.reason, of);
        round.stopped++;
        break;
      }
    }
  });
  // A plan with no step left (its lead gone) ends here.
  const stepped = new Set(due.map((d) => d.run));
  const ended = runs.filter((r) => !stepped.has(r));
  for (const run of ended)
    outcomes.push({
      job: run,
      status: 'completed',
      error: null,
      next_step: run.next_step,
      steps: JSON.stringify(run.steps),
    });
  await db.withTransaction(async (tx) => {
    // Only for the plans this round still holds: one stopped since its claim makes nothing.
    const held = await stillHeld(tx, runs);
    const mine = (x: { lead_id: string }) => held.has(x.lead_id);
    await addCallTasks(tx, tasks.filter(mine));
    await scheduleTexts(tx, texts.filter(mine));
    await settleRuns(tx, outcomes, {}, now);
    for (const [reason, of] of stops) await stopCadences(tx, of, reason, now);
  });
  return round;
}

/**
 * A step done or skipped, and the plan after it: the next step due at its time from the plan's
 * start (at once if that has passed), or the plan completed.
 */
function stepDone(
  run: ClaimedRun,
  plan: readonly CadenceStep[],
  status: StepDone['status'],
  reason: string | null,
  now: Date,
): Outcome {
  const done: StepDone = {
    status,
    reason,
    due_at: new Date(run.due_at).toISOString(),
    at: now.toISOString(),
  };
  const steps = JSON.stringify([...run.steps, done]);
  const next = run.next_step + 1;
  if (next >= plan.length) return { job: run, status: 'completed', error: null, next_step: next, steps };
  const start = { delivered_at: new Date(run.started_at), zone: run.zone, state: run.state };
  const due = planDueTimes(plan.slice(0, next + 1), start)[next] ?? now;
  return { job: run, status: 'active', error: null, due, next_step: next, steps };
}

/** Of these claimed plans, the leads of those still held by this claim, locked until the transaction ends. */
async function stillHeld(tx: Queryable, runs: readonly ClaimedRun[]): Promise<Set<string>> {
  const { rows } = await tx.query<{ lead_id: string }>(
    `SELECT r.lead_id FROM cadence_runs r
       JOIN unnest($1::uuid[], $2::uuid[], $3::int[]) AS c (agent_id, lead_id, attempts)
         ON r.agent_id = c.agent_id AND r.lead_id = c.lead_id
      WHERE r.status = 'stepping' AND r.attempts = c.attempts
      FOR UPDATE OF r`,
    [runs.map((r) => r.agent_id), runs.map((r) => r.lead_id), runs.map((r) => r.attempts)],
  );
  return new Set(rows.map((r) => r.lead_id));
}

const NONE = { n: 0, oldest: null };

const versionOf = (run: ClaimedRun): VersionKey => ({
  agent_id: run.cadence_agent_id,
  cadence_id: run.cadence_id,
  version: run.version,
});

/** The texts each number had from its agent in the last 24 hours: how many, and the oldest's time. */
async function recentTexts(
  db: Queryable,
  due: ReadonlyArray<{ run: ClaimedRun; lead: FollowUpLead }>,
  now: Date,
): Promise<Map<string, { n: number; oldest: Date | null }>> {
  const numbers = due.flatMap(({ run, lead }) =>
    typeof lead.phone === 'string' ? [{ agent_id: run.agent_id, phone: lead.phone }] : [],
  );
  if (numbers.length === 0) return new Map();
  const { rows } = await db.query<{ agent_id: string; phone: string; n: number; oldest: Date | null }>(
    `SELECT q.agent_id, q.phone, t.n, t.oldest
       FROM (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[])) AS q (agent_id, phone)
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS n, min(m.created_at) AS oldest ${textsToNumberSql('q.agent_id', 'q.phone', '$3')}) AS t`,
    [
      numbers.map((n) => n.agent_id),
      numbers.map((n) => n.phone),
      new Date(now.getTime() - TEXT_WINDOW_MS).toISOString(),
    ],
  );
  return new Map(
    rows.map((r) => [`${r.agent_id} ${r.phone}`, { n: r.n, oldest: r.oldest ? new Date(r.oldest) : null }]),
  );
}
