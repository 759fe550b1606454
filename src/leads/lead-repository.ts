import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import type { JsonObject, LeadFields } from '../ingest/types.ts';

export type LeadStatus = 'New' | 'Scheduled' | 'Canceled';

/** Lead attributes kept in their own columns; every other canonical field goes to `fields`. */
const COLUMN_FIELDS = ['name', 'first_name', 'last_name', 'phone', 'email', 'campaign_name'] as const;

export interface NewLead {
  agent_id: string;
  source_id: string;
  status: LeadStatus;
  fields: LeadFields;
  custom_fields: JsonObject;
  idempotency_key: string | null;
}

export async function insertLead(tx: Queryable, lead: NewLead): Promise<string> {
  const leadId = randomUUID();
  const { columns, rest } = splitFields(lead.fields);
  await tx.query(
    `INSERT INTO leads (agent_id, lead_id, source_id, status, name, first_name, last_name, phone, email,
                        campaign_name, idempotency_key, fields, custom_fields)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      lead.agent_id,
      leadId,
      lead.source_id,
      lead.status,
      columns.name ?? '',
      columns.first_name ?? null,
      columns.last_name ?? null,
      columns.phone ?? null,
      columns.email ?? null,
      columns.campaign_name ?? null,
      lead.idempotency_key,
      JSON.stringify(rest),
      JSON.stringify(lead.custom_fields),
    ],
  );
  return leadId;
}

export async function insertHistory(
  tx: Queryable,
  entry: {
    agent_id: string;
    lead_id: string;
    source_id: string | null;
    event: string;
    changes?: object;
    details?: object;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO lead_history (agent_id, history_id, lead_id, source_id, event, changes, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      entry.agent_id,
      randomUUID(),
      entry.lead_id,
      entry.source_id,
      entry.event,
      JSON.stringify(entry.changes ?? {}),
      JSON.stringify(entry.details ?? {}),
    ],
  );
}

function splitFields(fields: LeadFields): { columns: Record<string, string>; rest: LeadFields } {
  const columns: Record<string, string> = {};
  const rest: LeadFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if ((COLUMN_FIELDS as readonly string[]).includes(key) && typeof value === 'string') columns[key] = value;
    else if (key !== 'status') rest[key] = value;
  }
  return { columns, rest };
}
