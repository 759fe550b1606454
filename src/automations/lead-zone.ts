import { resolveSchedule } from '../appointments/schedule.ts';
import type { LeadFields } from '../ingest/types.ts';

/** The prospect's time zone: told, or inferred from ZIP, state, area code; else the agent's. */
export function leadZone(lead: Record<string, unknown>, agentZone: string): string {
  const fields = Object.fromEntries(
    Object.entries(lead).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)),
  ) as LeadFields;
  return resolveSchedule(fields, agentZone).timezone ?? agentZone;
}
