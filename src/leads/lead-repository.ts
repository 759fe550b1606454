import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import { insertRow, run, setList, sql, type RowShape } from '../db/statement.ts';
import type { LeadStatus } from './lead-status.ts';
import type { LeadFields } from '../ingest/types.ts';
import { text, type JsonObject } from '../json.ts';
import type { ConsentEvidence } from './consent.ts';
import type { StoredLead } from './merge-lead.ts';
import { screeningSql } from '../screening/screening-sql.ts';

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
  /** How a lead of an agency came to its producer (src/routing); null for an agent's own source. */
  routing?: object | null;
  /** When the claim timer looks at the lead again; null: never. */
  claim_due_at?: Date | null;
}

// The consent evidence with the time it arrived, or null (SQL: `$` is the evidence as json or null).
const withArrival = (param: string) =>
  `${param}::jsonb || jsonb_build_object('received_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

// The lead's screening, worked out by the database as it writes the lead (`$` is the contact,
// {agent_id, phone, email}, as json): the lists its phone or email is on now.
const SCREENING = screeningSql(`($->>'agent_id')::uuid`, `($->>'phone')`, `($->>'email')`);

/** A new lead's row; `leadRow` gives its values. */
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
    { name: 'routing', type: 'jsonb' },
    { name: 'claim_due_at', type: 'timestamptz' },
    { name: 'screening', type: 'jsonb', value: SCREENING },
  ],
};

/** A new lead's values, by column (LEAD_ROW). */
export function leadRow(leadId: string, lead: NewLead): Record<string, unknown> {
  return {
    agent_id: lead.agent_id,
    lead_id: leadId,
    source_id: lead.source_id,
    idempotency_key: lead.idempotency_key,
    ...leadValues(lead),
    screening: screeningContact(lead.agent_id, lead.fields),
    routing: lead.routing ? JSON.stringify(lead.routing) : null,
    claim_due_at: lead.claim_due_at ?? null,
  };
}

const INSERT_LEAD = insertRow(LEAD_ROW);

export async function insertLead(tx: Queryable, leadId: string, lead: NewLead): Promise<void> {
  await run(tx, INSERT_LEAD, leadRow(leadId, lead));
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

/** A history line's row; `historyRow` gives its values. */
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

/** A history line's values, by column (HISTORY_ROW). */
export function historyRow(entry: NewHistoryEntry): Record<string, unknown> {
  return {
    agent_id: entry.agent_id,
    history_id: newId(),
    lead_id: entry.lead_id,
    source_id: entry.source_id,
    event: entry.event,
    changes: JSON.stringify(entry.changes ?? {}),
    details: JSON.stringify(entry.details ?? {}),
  };
}

const INSERT_HISTORY = insertRow(HISTORY_ROW);

export async function insertHistory(tx: Queryable, entry: NewHistoryEntry): Promise<void> {
  await run(tx, INSERT_HISTORY, historyRow(entry));
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

const LOCK_LEAD = sql<'agent_id' | 'lead_id'>(
  (p) => `SELECT ${storedLeadColumns('l')} FROM leads l
           WHERE l.agent_id = ${p('agent_id', 'uuid')} AND l.lead_id = ${p('lead_id', 'uuid')} FOR UPDATE`,
);

/** Reads a lead and locks its row until the transaction ends: merges of one lead queue up. */
export async function lockLead(tx: Queryable, agentId: string, leadId: string): Promise<StoredLead | null> {
  const { rows } = await run<Record<string, unknown>, 'agent_id' | 'lead_id'>(tx, LOCK_LEAD, {
    agent_id: agentId,
    lead_id: leadId,
  });
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
 * The columns a repeat contact's merge sets (`leadUpdateRow` gives their values); consent evidence
 * is kept when the delivery states none.
 */
export const LEAD_UPDATE_ROW: RowShape = {
  table: 'leads',
  columns: [
    { name: 'status', type: 'text' },
    ...COLUMN_FIELDS.map((name) => ({ name, type: 'text' })),
    { name: 'fields', type: 'jsonb' },
    { name: 'custom_fields', type: 'jsonb' },
    { name: 'consent', type: 'jsonb', value: `COALESCE(${withArrival('$')}, consent)` },
    { name: 'body_format', type: 'text' },
    { name: 'screening', type: 'jsonb', value: SCREENING },
  ],
};

const UPDATE_LEAD = sql(
  (p) => `UPDATE leads SET ${setList(LEAD_UPDATE_ROW, p)}, updated_at = now()
           WHERE agent_id = ${p('agent_id', 'uuid')} AND lead_id = ${p('lead_id', 'uuid')}`,
);

export async function updateLead(
  tx: Queryable,
  agentId: string,
  leadId: string,
  update: LeadUpdate,
): Promise<void> {
  await run(tx, UPDATE_LEAD, { agent_id: agentId, lead_id: leadId, ...leadUpdateRow(agentId, update) });
}

/** A merge's values, by column (LEAD_UPDATE_ROW). */
export function leadUpdateRow(agentId: string, update: LeadUpdate): Record<string, unknown> {
  // A delivery that does not state consent leaves the evidence as it was (null || … is null).
  return { ...leadValues(update), screening: screeningContact(agentId, update.fields) };
}

/** The contact a lead is screened by: its agent, phone and email (the screening column's parameter). */
function screeningContact(agentId: string, fields: LeadFields): string {
  return JSON.stringify({ agent_id: agentId, phone: text(fields.phone), email: text(fields.email) });
}

const consentJson = (consent: ConsentEvidence | null) => (consent ? JSON.stringify(consent) : null);

/** The status, the column fields, the `fields` and `custom_fields` json, the consent and the body's format. */
function leadValues(lead: LeadUpdate): Record<string, unknown> {
  const { columns, rest } = splitFields(lead.fields);
  const values: Record<string, unknown> = { status: lead.status };
  for (const column of COLUMN_FIELDS) values[column] = columns[column] ?? null;
  values.name = columns.name ?? '';
  return {
    ...values,
    fields: JSON.stringify(rest),
    custom_fields: JSON.stringify(lead.custom_fields),
    consent: consentJson(lead.consent),
    body_format: lead.body_format,
  };
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
