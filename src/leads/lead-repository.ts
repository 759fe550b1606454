import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import { insertSql, setList, type RowShape } from '../db/row-shape.ts';
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

// The consent evidence with the time it arrived, or null (SQL: `$` is the evidence as json or null).
const withArrival = (param: string) =>
  `${param}::jsonb || jsonb_build_object('received_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** A new lead's row; `leadRow` gives its values in this order. */
export const LEAD_ROW: RowShape = {
  table: 'leads',
  columns: [
    { name: 'agent_id', type: 'uuid' },
    { name: 'lead_id', type: 'uuid' },
    { name: 'source_id', type: 'uuid' },
    { name: 'idempotency_key', type: 'text' },
    { name: 'status', type: 'text' },
    { name: 'name', type: 'text' },
    { name: 'first_name', type: 'text' },
    { name: 'last_name', type: 'text' },
    { name: 'phone', type: 'text' },
    { name: 'email', type: 'text' },
    { name: 'campaign_name', type: 'text' },
    { name: 'fields', type: 'jsonb' },
    { name: 'custom_fields', type: 'jsonb' },
    { name: 'consent', type: 'jsonb', value: withArrival('$') },
    { name: 'body_format', type: 'text' },
  ],
};

export function leadRow(leadId: string, lead: NewLead): unknown[] {
  return [
    lead.agent_id,
    leadId,
    lead.source_id,
    lead.idempotency_key,
    ...leadValues(lead),
    consentJson(lead.consent),
    lead.body_format,
  ];
}

const INSERT_LEAD = insertSql(LEAD_ROW);

export async function insertLead(tx: Queryable, leadId: string, lead: NewLead): Promise<void> {
  await tx.query(INSERT_LEAD, leadRow(leadId, lead));
}

/** One line of a lead's history: what happened to it, and what changed. */
export interface NewHistoryEntry {
  agent_id: string;
  lead_id: string;
  source_id: string | null;
  event: string;
  changes?: object;
  details?: object;
}

/** A history line's row; `historyRow` gives its values in this order. */
export const HISTORY_ROW: RowShape = {
  table: 'lead_history',
  columns: [
    { name: 'agent_id', type: 'uuid' },
    { name: 'history_id', type: 'uuid' },
    { name: 'lead_id', type: 'uuid' },
    { name: 'source_id', type: 'uuid' },
    { name: 'event', type: 'text' },
    { name: 'changes', type: 'jsonb' },
    { name: 'details', type: 'jsonb' },
  ],
};

export function historyRow(entry: NewHistoryEntry): unknown[] {
  return [
    entry.agent_id,
    newId(),
    entry.lead_id,
    entry.source_id,
    entry.event,
    JSON.stringify(entry.changes ?? {}),
    JSON.stringify(entry.details ?? {}),
  ];
}

const INSERT_HISTORY = insertSql(HISTORY_ROW);

export async function insertHistory(tx: Queryable, entry: NewHistoryEntry): Promise<void> {
  await tx.query(INSERT_HISTORY, historyRow(entry));
}

/** The columns a stored lead is read from (`toStoredLead`), each prefixed with `alias.`. */
export const storedLeadColumns = (alias: string): string =>
  ['lead_id', 'status', ...COLUMN_FIELDS, 'fields', 'custom_fields'].map((c) => `${alias}.${c}`).join(', ');

/** A stored lead from a row of `storedLeadColumns`; the column fields go back into `fields`. */
export function toStoredLead(row: Record<string, unknown>): StoredLead {
  const fields: LeadFields = { ...(row.fields as LeadFields) };
  for (const column of COLUMN_FIELDS) {
    const value = row[column];
    if (typeof value === 'string' && value !== '') fields[column] = value;
  }
  return {
    lead_id: row.lead_id as string,
    status: row.status as LeadStatus,
    fields,
    custom_fields: row.custom_fields as JsonObject,
  };
}

/** Reads a lead and locks its row until the transaction ends: merges of one lead queue up. */
export async function lockLead(tx: Queryable, agentId: string, leadId: string): Promise<StoredLead | null> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT ${storedLeadColumns('l')} FROM leads l WHERE l.agent_id = $1 AND l.lead_id = $2 FOR UPDATE`,
    [agentId, leadId],
  );
  return rows[0] ? toStoredLead(rows[0]) : null;
}

/** A repeat contact's lead after the merge. */
export interface LeadUpdate {
  status: LeadStatus;
  fields: LeadFields;
  custom_fields: JsonObject;
  consent: ConsentEvidence | null;
  body_format: string;
}

/**
 * The columns a repeat contact's merge sets, in the order `updateLeadParams` gives their values
 * after the agent and the lead; consent evidence is kept when the delivery states none.
 */
export const LEAD_UPDATE: RowShape = {
  table: 'leads',
  columns: [
    { name: 'status', type: 'text' },
    ...COLUMN_FIELDS.map((name) => ({ name, type: 'text' })),
    { name: 'fields', type: 'jsonb' },
    { name: 'custom_fields', type: 'jsonb' },
    { name: 'consent', type: 'jsonb', value: `COALESCE(${withArrival('$')}, consent)` },
    { name: 'body_format', type: 'text' },
  ],
};

/** A repeat contact's merge: parameters as `updateLeadParams` gives them ($1 agent, $2 lead). */
export const UPDATE_LEAD = `UPDATE leads SET ${setList(LEAD_UPDATE, 3)}, updated_at = now()
 WHERE agent_id = $1 AND lead_id = $2`;

export async function updateLead(
  tx: Queryable,
  agentId: string,
  leadId: string,
  update: LeadUpdate,
): Promise<void> {
  await tx.query(UPDATE_LEAD, updateLeadParams(agentId, leadId, update));
}

export function updateLeadParams(agentId: string, leadId: string, update: LeadUpdate): unknown[] {
  // A delivery that does not state consent leaves the evidence as it was (null || … is null).
  return [agentId, leadId, ...leadValues(update), consentJson(update.consent), update.body_format];
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
