import { contactRule, nextAllowedInstant } from './contact-window.ts';
import { unknownPlaceholder } from './sms-template.ts';

/** What a step of a cadence does when it falls due. */
export const CADENCE_ACTIONS = ['call', 'text'] as const;
export type CadenceAction = (typeof CADENCE_ACTIONS)[number];

/** A step as the agent writes it: minutes after the delivery, a call or a text (with its words). */
export interface CadenceStep {
  after_minutes: number;
  action: CadenceAction;
  body?: string;
}

/** The placeholders a cadence's text may use, filled when the step falls due. */
export const CADENCE_PLACEHOLDERS = ['first_name', 'agent_name'] as const;

/** The most steps a cadence has. */
export const CADENCE_MAX_STEPS = 30;

/** The most minutes after its delivery a step may fall due: 60 days. */
export const CADENCE_MAX_DELAY_MINUTES = 86_400;

/**
 * What is wrong with a cadence's steps beyond their schema, naming the step (`steps[2].body …`),
 * or null. The schema holds the types, the count and the delays' range. Pure.
 */
export function cadenceStepsProblem(steps: readonly CadenceStep[]): string | null {
  if (steps.length === 0) return 'steps must have at least one step';
  if (steps.length > CADENCE_MAX_STEPS) return `steps may have at most ${CADENCE_MAX_STEPS} steps`;
  for (const [i, step] of steps.entries()) {
    if (!Number.isSafeInteger(step.after_minutes) || step.after_minutes < 0)
      return `steps[${i}].after_minutes must be a whole number of minutes, 0 or more`;
    if (step.action === 'text' && !step.body?.trim()) return `steps[${i}].body is required for a text`;
    if (step.action === 'call' && step.body !== undefined) return `steps[${i}].body is only for a text`;
    const unknown = unknownPlaceholder(step.body ?? '', CADENCE_PLACEHOLDERS);
    if (unknown !== null)
      return `steps[${i}].body has an unknown placeholder {${unknown}}; known: ${CADENCE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`;
  }
  return null;
}

/** The steps as kept: in the order of their delay (a stable sort), texts trimmed. Pure. */
export function orderedSteps(steps: readonly CadenceStep[]): CadenceStep[] {
  return steps
    .map((s) =>
      s.action === 'text'
        ? { ...s, body: s.body?.trim() }
        : { after_minutes: s.after_minutes, action: s.action },
    )
    .sort((a, b) => a.after_minutes - b.after_minutes);
}

/** Where a lead's plan starts from: its delivery, its zone and its state's rule. */
export interface PlanStart {
  delivered_at: Date;
  /** The prospect's zone (told or inferred). */
  zone: string;
  state: string | null;
}

const DAY_MS = 86_400_000;

/**
 * When each step falls due: the delivery plus its delay, moved forward into the prospect's calling
 * window in the prospect's zone (the state's rule, else the federal one). A text in a state that
 * allows only so many texts in 24 hours moves later, past the oldest of those, never dropped. Pure.
 */
export function planDueTimes(steps: readonly CadenceStep[], start: PlanStart): Date[] {
  const rule = contactRule(start.state);
  const texts: number[] = [];
  return steps.map((step) => {
    let at = nextAllowedInstant(
      new Date(start.delivered_at.getTime() + step.after_minutes * 60_000),
      start.zone,
      rule,
    );
    if (step.action !== 'text') return at;
    // Texts keep their order, so the texts before one are all that can crowd its 24 hours.
    const last = texts[texts.length - 1];
    if (last !== undefined && last > at.getTime()) at = new Date(last);
    if (rule.maxPer24h !== null) {
      for (;;) {
        const within = texts.filter((t) => t > at.getTime() - DAY_MS && t <= at.getTime());
        if (within.length < rule.maxPer24h) break;
        at = nextAllowedInstant(new Date(Math.min(...within) + DAY_MS), start.zone, rule);
      }
    }
    texts.push(at.getTime());
    return at;
  });
}
