import {
  CADENCE_MAX_DELAY_MINUTES,
  CADENCE_MAX_STEPS,
  cadenceStepsProblem,
  orderedSteps,
  type CadenceStep,
} from '../automations/cadence-plan.ts';
import { STORABLE as STORABLE_PATTERN } from '../admin/schemas/common.ts';
import { LIMITS } from '../limits.ts';

/** The units a step's delay is typed in, and their minutes. */
export const DELAY_UNITS = { minutes: 1, hours: 60, days: 1_440 } as const;
export type DelayUnit = keyof typeof DELAY_UNITS;

/** One row of the steps' table as typed: text, so a refused form comes back as it was. */
export interface StepRow {
  after: string;
  unit: string;
  action: string;
  body: string;
}

/** The rows a new cadence's form shows; "More rows" adds ROWS_ADDED, up to CADENCE_MAX_STEPS. */
export const ROWS_SHOWN = 8;
export const ROWS_ADDED = 4;

export type CadenceForm = Record<string, unknown>;

const BLANK: StepRow = { after: '', unit: 'minutes', action: '', body: '' };
const WHOLE = /^\d+$/;
// As the API's schema reads text (Ajv's regexes are unicode): no NUL, no lone surrogate.
const STORABLE = new RegExp(STORABLE_PATTERN, 'u');

/** A posted field as text; a field sent twice (an array) is kept as a value no check passes. */
const field = (f: CadenceForm, name: string): string => {
  const v = f[name];
  return v === undefined ? '' : typeof v === 'string' ? v : '\u0000';
};

const isBlank = (r: StepRow) => r.after.trim() === '' && r.action === '' && r.body.trim() === '';

/**
 * The rows as posted (`after_1`, `unit_1`, `action_1`, `body_1`, …), as many as the form showed
 * (`rows`) and never fewer than the last filled one, at most CADENCE_MAX_STEPS. Pure.
 */
export function postedRows(f: CadenceForm, extra = 0): StepRow[] {
  const all = Array.from({ length: CADENCE_MAX_STEPS }, (_, i) => ({
    after: field(f, `after_${i + 1}`),
    unit: field(f, `unit_${i + 1}`) || 'minutes',
    action: field(f, `action_${i + 1}`),
    body: field(f, `body_${i + 1}`),
  }));
  const shown = WHOLE.test(field(f, 'rows')) ? Number(field(f, 'rows')) : ROWS_SHOWN;
  const lastFilled = all.findLastIndex((r) => !isBlank(r)) + 1;
  return all.slice(0, Math.min(CADENCE_MAX_STEPS, Math.max(shown, lastFilled, 1) + extra));
}

/**
 * A cadence's steps as the form's rows, each delay in the largest unit that holds it whole, then
 * `blank` rows more (at least ROWS_SHOWN in all). Pure.
 */
export function rowsOf(steps: readonly CadenceStep[], blank = ROWS_ADDED): StepRow[] {
  const rows = steps.map((s) => {
    const unit = largestUnit(s.after_minutes);
    return { after: String(s.after_minutes / DELAY_UNITS[unit]), unit, action: s.action, body: s.body ?? '' };
  });
  const total = Math.min(CADENCE_MAX_STEPS, Math.max(ROWS_SHOWN, rows.length + blank));
  return [...rows, ...Array.from({ length: total - rows.length }, () => ({ ...BLANK }))];
}

/** What the rows ask for, in the order of their delay, or the first thing wrong, naming its row. */
export type ReadSteps = { ok: true; steps: CadenceStep[] } | { ok: false; why: string };

/**
 * The steps the filled rows make (blank rows are skipped), checked as the admin API checks a
 * cadence: its schema's ranges here (the form's fields are text), then `cadenceStepsProblem`,
 * whose `steps[i]` is told as the row the agent sees. Pure.
 */
export function readSteps(rows: readonly StepRow[]): ReadSteps {
  const steps: CadenceStep[] = [];
  const rowNo: number[] = [];
  for (const [i, r] of rows.entries()) {
    if (isBlank(r)) continue;
    const no = i + 1;
    const refuse = (why: string): ReadSteps => ({ ok: false, why: `Step ${no}: ${why}.` });
    if (r.action !== 'call' && r.action !== 'text') return refuse('choose Call or Text');
    const factor = (DELAY_UNITS as Record<string, number>)[r.unit];
    if (factor === undefined) return refuse('the delay is in minutes, hours or days');
    const after = r.after.trim();
    const minutes = WHOLE.test(after) ? Number(after) * factor : NaN;
    if (!(minutes <= CADENCE_MAX_DELAY_MINUTES))
      return refuse(
        `the delay must be a whole number, at most 60 days (${CADENCE_MAX_DELAY_MINUTES.toLocaleString('en-US')} minutes)`,
      );
    if (!STORABLE.test(r.body)) return refuse('the text holds a character that cannot be stored');
    if (r.body.length > LIMITS.smsTemplateMaxLength)
      return refuse(
        `the text is at most ${LIMITS.smsTemplateMaxLength} characters (it has ${r.body.length})`,
      );
    if (r.action === 'call' && r.body.trim() !== '')
      return refuse('a call has no text: clear it, or choose Text');
    if (r.action === 'text' && r.body.trim() === '') return refuse('a text needs its words');
    steps.push(
      r.action === 'text'
        ? { after_minutes: minutes, action: 'text', body: r.body }
        : { after_minutes: minutes, action: 'call' },
    );
    rowNo.push(no);
  }
  if (steps.length === 0) return { ok: false, why: 'A cadence needs at least one step: fill in a row.' };
  const problem = cadenceStepsProblem(steps);
  if (problem) {
    const told = problem.replace(
      /^steps\[(\d+)\]\.(\w+)/,
      (_, i: string, name: string) =>
        `Step ${rowNo[Number(i)] ?? Number(i) + 1}: the ${name === 'body' ? 'text' : 'delay'}`,
    );
    return { ok: false, why: `${told.charAt(0).toUpperCase()}${told.slice(1)}.` };
  }
  return { ok: true, steps: orderedSteps(steps) };
}

/** The largest unit that holds a delay whole (minutes for none). */
function largestUnit(minutes: number): DelayUnit {
  if (minutes > 0 && minutes % DELAY_UNITS.days === 0) return 'days';
  return minutes > 0 && minutes % DELAY_UNITS.hours === 0 ? 'hours' : 'minutes';
}

/** A step's delay as a person says it: "at once", "after 2 hours", "after 3 days". Pure. */
export function delayText(minutes: number): string {
  if (minutes === 0) return 'at once';
  const unit = largestUnit(minutes);
  const n = minutes / DELAY_UNITS[unit];
  return `after ${n} ${n === 1 ? unit.slice(0, -1) : unit}`;
}
