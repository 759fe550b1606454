import { readLeadCadence, type LeadCadence } from '../automations/cadence-view.ts';
import { readLeadReminders, type LeadReminder } from '../automations/reminder-view.ts';
import type { Queryable } from '../db/index.ts';
import { listLeadReturns, type LeadReturn } from '../economics/returns.ts';
import { listLeadSales, type LeadSale } from '../economics/sales.ts';
import { getLeadView, readLeadDetail, type LeadDetail } from '../leads/lead-queries.ts';

/** A lead as its read answers it: the detail of src/leads, with its returns and sales of src/economics. */
export interface LeadRead extends LeadDetail {
  /** Each return asked of a vendor, with its evidence and outcome; oldest first. */
  returns: LeadReturn[];
  /** Each policy sold to the lead, in the order sold. */
  sales: LeadSale[];
  /** The cadence it follows, with each step's state; null when it follows none. */
  cadence: LeadCadence | null;
  /** The reminder texts of its appointments, planned, sent or skipped, in the order they go. */
  reminders: LeadReminder[];
}

/**
 * One lead for the admin API and the console: null when missing or not `owner`'s (unless null, the
 * operator), checked before anything else is read. The rest is read together, each by the lead's key.
 */
export async function readLead(
  db: Queryable,
  leadId: string,
  owner: string | null,
): Promise<LeadRead | null> {
  const lead = await getLeadView(db, leadId);
  if (!lead || (owner !== null && lead.agent_id !== owner)) return null;
  const [detail, returns, sales, cadence, reminders] = await Promise.all([
    readLeadDetail(db, lead),
    listLeadReturns(db, lead.agent_id, lead.lead_id),
    listLeadSales(db, lead.agent_id, lead.lead_id),
    readLeadCadence(db, lead.agent_id, lead.lead_id),
    readLeadReminders(db, lead.agent_id, lead.lead_id),
  ]);
  return { ...detail, returns, sales, cadence, reminders };
}
