import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import type { LeadStatus } from './lead-status.ts';
import type { LeadFields } from '../ingest/types.ts';
import type { JsonObject } from '../json.ts';
import type { ConsentEvidence } from './consent.ts';
import type { StoredLead } from './merge-lead.ts';

/** Lead attributes kept in their own columns; every other canonical field goes to `fields`. */
const COLUMN_FIELDS = ['name', 'first_name', 'last_name', 'phone', 'email', 'campaign_name'] as const;

export interface NewLead {
  agent_id: string;
  source_id: string;
  status: LeadStatus;
  fields: LeadFields;
  custom_fields: JsonObject;
  idempotency_key: string | null;
  consent: ConsentEvidence | null;
  /** How the delivery's body was read (`flat`, `meta_lead_ads` …): the latest delivery's is kept. */
  body_format: string;
}

// The consent evidence with the time it arrived, or null (SQL: `$n` is the evidence as json or null).
const withArrival = (param: string) =>
  `${param}::jsonb || jsonb_build_object('received_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

export async function insertLead(tx: Queryable, leadId: string, lead: NewLead): Promise<void> {
  await tx.query(
    `INSERT INTO leads (agent_id, lead_id, source_id, idempotency_key, status, name, first_name, last_name,
                        phone, email, campaign_name, fields, custom_fields, consent, body_format)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, ${withArrival('$14')}, $15)`,
    [
      lead.agent_id,
      leadId,
      lead.source_id,
      lead.idempotency_key,
      ...leadValues(lead),
      consentJson(lead.consent),
      lead.body_format,
    ],
  );
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

/** Reads a lead and locks its row until the transaction ends: merges of one lead queue up. */
export async function lockLead(tx: Queryable, agentId: string, leadId: string): Promise<StoredLead | null> {
  const { rows } = await tx.query<StoredLead & Record<string, unknown>>(
    `SELECT lead_id, status, name, first_name, last_name, phone, email, campaign_name, fields, custom_fields
       FROM leads WHERE agent_id = $1 AND lead_id = $2 FOR UPDATE`,
    [agentId, leadId],
  );
  const row = rows[0];
  if (!row) return null;
  const fields: LeadFields = { ...row.fields };
  for (const column of COLUMN_FIELDS) {
    const value = row[column];
    if (typeof value === 'string' && value !== '') fields[column] = value;
  }
  return { lead_id: row.lead_id, status: row.status, fields, custom_fields: row.custom_fields };
}

export async function updateLead(
  tx: Queryable,
  agentId: string,
  leadId: string,
  update: {
    status: LeadStatus;
    fields: LeadFields;
    custom_fields: JsonObject;
    consent: ConsentEvidence | null;
    body_format: string;
  },
): Promise<void> {
  // A delivery that does not state consent leaves the evidence as it was (null || … is null).
  await tx.query(
    `UPDATE leads SET status = $3, name = $4, first_name = $5, last_name = $6, phone = $7, email = $8,
            campaign_name = $9, fields = $10, custom_fields = $11, updated_at = now(),
            consent = COALESCE(${withArrival('$12')}, consent), body_format = $13
      WHERE agent_id = $1 AND lead_id = $2`,
    [agentId, leadId, ...leadValues(update), consentJson(update.consent), update.body_format],
  );
}

const consentJson = (consent: ConsentEvidence | null) => (consent ? JSON.stringify(consent) : null);

/** status, the column fields in COLUMN_FIELDS order, then the `fields` and `custom_fields` json. */
function leadValues(lead: { status: LeadStatus; fields: LeadFields; custom_fields: JsonObject }): unknown[] {
  const { columns, rest } = splitFields(lead.fields);
  return [
    lead.status,
    columns.name ?? '',
    ...COLUMN_FIELDS.slice(1).map((column) => columns[column] ?? null),
    JSON.stringify(rest),
    JSON.stringify(lead.custom_fields),
  ];
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

/** The lead's status as stored. */
export async function readLeadStatus(
  db: Queryable,
  agentId: string,
  leadId: string,
): Promise<LeadStatus | null> {
  const { rows } = await db.query<{ status: LeadStatus }>(
    'SELECT status FROM leads WHERE agent_id = $1 AND lead_id = $2',
    [agentId, leadId],
  );
  return rows[0]?.status ?? null;
}
