import type { Database } from '../db/index.ts';
import { appError } from '../errors.ts';
import { reminderTemplateProblem } from '../automations/reminder-plan.ts';
import { planAgentReminders } from '../automations/reminder-repository.ts';
import { updateAgent, type AgentReminders, type AgentRow } from './agent-repository.ts';

type AgentPatch = Parameters<typeof updateAgent>[2];

/**
 * The reminders' part of a change, its template trimmed and checked: an unknown placeholder is a
 * 400 naming the field. The admin API's and the console's.
 */
export function reminderPatch(given: Partial<AgentReminders>): Partial<AgentReminders> {
  const template = given.template === undefined ? undefined : (given.template?.trim() ?? null);
  const problem = template ? reminderTemplateProblem(template) : null;
  if (problem) throw appError('VALIDATION_ERROR', problem);
  return {
    ...(given.day_before !== undefined ? { day_before: given.day_before } : {}),
    ...(given.hour_before !== undefined ? { hour_before: given.hour_before } : {}),
    ...(template !== undefined ? { template } : {}),
  };
}

/** Whether a change turned a reminder on that was off. */
const turnedOn = (before: AgentRow, after: AgentRow) =>
  (after.reminders.day_before && !before.reminders.day_before) ||
  (after.reminders.hour_before && !before.reminders.hour_before);

/**
 * Changes the agent; a reminder it turns on is planned in the same transaction for the agent's
 * booked appointments still to come (docs/reminders.md). Null: no such agent.
 */
export async function changeAgent(
  db: Database,
  agent: AgentRow,
  patch: AgentPatch,
): Promise<AgentRow | null> {
  return db.withTransaction(async (tx) => {
    const row = await updateAgent(tx, agent.agent_id, patch);
    if (row && turnedOn(agent, row))
      await planAgentReminders(
        tx,
        {
          agent_id: row.agent_id,
          timezone: row.timezone,
          reminder_day_before: row.reminders.day_before,
          reminder_hour_before: row.reminders.hour_before,
        },
        new Date(),
      );
    return row;
  });
}
