import { FieldIssues } from '../appointments/lead-input.ts';
import { inferTimezone, TIMEZONE_INPUTS } from '../appointments/timezone-inference.ts';
import type { LeadFields } from '../ingest/types.ts';

/**
 * The prospect's time zone: told, or inferred from ZIP, state, area code; else the agent's. The
 * zone resolveSchedule gives, without placing the lead's appointment: the dispatcher asks for every
 * follow-up it plans and every text it sends, and placing a time in a zone (its DST rules, a second
 * placement when scheduled_at and a date and time are both stored) cost more than the inference.
 * Only the fields the inference reads are copied: copying every field of the lead was most of what
 * this cost.
 */
export function leadZone(lead: Record<string, unknown>, agentZone: string): string {
  const fields: LeadFields = {};
  for (const key of TIMEZONE_INPUTS) {
    const value = lead[key];
    const plain = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    if (plain) fields[key] = value;
  }
  return inferTimezone(fields, agentZone, new FieldIssues()).zone;
}
