import type { Queryable } from '../db/index.ts';
import { readThread, type ThreadMessage } from './thread-repository.ts';

/**
 * A lead's thread for the admin API and the console: null when the lead is missing or not
 * `owner`'s (unless null, the operator), checked before the thread is read. `withMessages: false`
 * only finds the lead.
 */
export async function readLeadThread(
  db: Queryable,
  leadId: string,
  owner: string | null,
  withMessages = true,
): Promise<{ agent_id: string; lead_id: string; messages: ThreadMessage[] } | null> {
  const { rows } = await db.query<{ agent_id: string }>('SELECT agent_id FROM leads WHERE lead_id = $1', [
    leadId,
  ]);
  const lead = rows[0];
  if (!lead || (owner !== null && lead.agent_id !== owner)) return null;
  return {
    agent_id: lead.agent_id,
    lead_id: leadId,
    messages: withMessages ? await readThread(db, lead.agent_id, leadId) : [],
  };
}
