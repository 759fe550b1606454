import { DateTime } from 'luxon';
import { LIMITS } from '../limits.ts';
import { iso, type Queryable } from '../db/index.ts';
import { listLeadAppointments, type AppointmentView } from '../appointments/appointment-queries.ts';
import { LEAD_FIELDS } from '../ingest/fields.ts';
import { listPurchases, type Purchase } from './purchase-repository.ts';

/** Read side of leads for the admin API: the list (keyset-paginated) and the detail view. */

export type LeadView = Record<string, unknown> & {
  lead_id: string;
  agent_id: string;
  source_id: string;
  status: string;
  name: string;
  created_at: string;
  updated_at: string;
};

export interface HistoryView {
  history_id: string;
  event: string;
  source_id: string | null;
  changes: unknown;
  details: unknown;
  created_at: string;
}

export interface LeadDetail extends LeadView {
  appointments: AppointmentView[];
  history: HistoryView[];
  /** A lead of an agency: how it came to its producer (src/routing); null otherwise. */
  routing: unknown;
  /** One per accepted live delivery: its source, when, its price and whether it is billable; oldest first. */
  purchases: Purchase[];
}

export interface LeadListQuery {
  status?: string;
  source_id?: string;
  /** The lead_category field, as stored. */
  category?: string;
  /** Free text matched against name, email and phone. */
  q?: string;
  limit?: number;
  cursor?: LeadCursor;
}

/** Position after the last lead of a page: created_at with full microsecond precision, then lead_id. */
export interface LeadCursor {
  created_at: string;
  lead_id: string;
}

interface LeadRow {
  lead_id: string;
  agent_id: string;
  source_id: string;
  status: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  email: string | null;
  campaign_name: string | null;
  idempotency_key: string | null;
  fields: Record<string, unknown> | null;
  custom_fields: unknown;
  consent: unknown;
  consent_check: unknown;
  screening: unknown;
  body_format: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  cursor_ts: string;
  /** Read by the lists and the lead's read (`WITH_OPT_OUT`), not by the dispatcher's views. */
  opt_out?: { at: string; keyword: string; words: string | null } | null;
}

// cursor_ts keeps the microseconds a JavaScript Date would lose, so a page never repeats a row.
const LEAD_COLUMNS = `lead_id, agent_id, source_id, status, name, first_name, last_name, phone, email,
  campaign_name, idempotency_key, fields, custom_fields, consent, consent_check, screening, body_format, created_at, updated_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_ts`;

/**
 * The lead's number opted out (the prospect's STOP or words), or the agent marked it "do not
 * contact": when, the keyword and the prospect's own words, and when a START resumed texts. One
 * probe of the (agent, phone) key.
 */
const WITH_OPT_OUT = `${LEAD_COLUMNS},
  (SELECT json_build_object('at', o.opted_out_at, 'keyword', o.keyword, 'words', o.words,
                            'texts_resumed_at', o.texts_resumed_at)
     FROM sms_opt_outs o WHERE o.agent_id = leads.agent_id AND o.phone = leads.phone) AS opt_out`;

export async function listLeads(
  db: Queryable,
  agentId: string,
  query: LeadListQuery,
): Promise<{ leads: LeadView[]; next_cursor: LeadCursor | null }> {
  const limit = Math.min(Math.max(query.limit ?? LIMITS.leadsPageDefault, 1), LIMITS.leadsPageMax);
  const params: unknown[] = [agentId];
  const where = ['agent_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (query.status) where.push(`status = ${param(query.status)}`);
  if (query.source_id) where.push(`source_id = ${param(query.source_id)}::uuid`);
  if (query.category) where.push(`fields->>'lead_category' = ${param(query.category)}`);
  if (query.q) {
    // Phones are stored as their 10 digits and nothing else. A search written like a phone
    // ("(555) 123-4567", "+1 555 123 4567", "0147") is a phone search: all 10 digits use the
    // phone index, fewer match anywhere in the number. Anything else matches name, email or phone.
    // A raw phone kept in custom_fields is not searched.
    const typed = /^[\d\s().+-]+$/.test(query.q) ? query.q.replace(/\D/g, '') : '';
    const digits = typed.length === 11 && typed.startsWith('1') ? typed.slice(1) : typed;
    if (digits.length === 10) where.push(`phone = ${param(digits)}`);
    else if (digits.length >= 3) where.push(`phone LIKE ${param(`%${digits}%`)}`);
    else {
      const pattern = param(`%${escapeLike(query.q)}%`);
      where.push(`(name ILIKE ${pattern} OR email ILIKE ${pattern} OR phone ILIKE ${pattern})`);
    }
  }
  if (query.cursor) {
    where.push(
      `(created_at, lead_id) < (${param(query.cursor.created_at)}::timestamptz, ${param(query.cursor.lead_id)}::uuid)`,
    );
  }
  const { rows } = await db.query<LeadRow>(
    `SELECT ${WITH_OPT_OUT} FROM leads WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, lead_id DESC LIMIT ${param(limit + 1)}`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    leads: page.map(toLeadView),
    next_cursor: rows.length > limit && last ? { created_at: last.cursor_ts, lead_id: last.lead_id } : null,
  };
}

/** A lead without its appointments and history: every field by its name, and the record's columns. */
export async function getLeadView(db: Queryable, leadId: string): Promise<LeadView | null> {
  const { rows } = await db.query<LeadRow>(`SELECT ${WITH_OPT_OUT} FROM leads WHERE lead_id = $1`, [leadId]);
  return rows[0] ? toLeadView(rows[0]) : null;
}

/** The leads of these ids, in one query, by id; an id with no lead is absent. */
export async function getLeadViews(
  db: Queryable,
  leadIds: readonly string[],
): Promise<Map<string, LeadView>> {
  if (leadIds.length === 0) return new Map();
  const { rows } = await db.query<LeadRow>(
    `SELECT ${LEAD_COLUMNS} FROM leads WHERE lead_id = ANY($1::uuid[])`,
    [[...new Set(leadIds)]],
  );
  return new Map(rows.map((row) => [row.lead_id, toLeadView(row)]));
}

/**
 * What the lead's read adds to its view: appointments, history, routing and purchases, read
 * together. The caller has the view already, and has checked whose lead it is.
 */
export async function readLeadDetail(db: Queryable, lead: LeadView): Promise<LeadDetail> {
  const [appointments, history, routing, purchases] = await Promise.all([
    listLeadAppointments(db, lead.agent_id, lead.lead_id),
    listLeadHistory(db, lead.agent_id, lead.lead_id),
    db.query<{ routing: unknown }>('SELECT routing FROM leads WHERE agent_id = $1 AND lead_id = $2', [
      lead.agent_id,
      lead.lead_id,
    ]),
    listPurchases(db, lead.agent_id, lead.lead_id),
  ]);
  return { ...lead, appointments, history, routing: routing.rows[0]?.routing ?? null, purchases };
}

export async function listLeadHistory(
  db: Queryable,
  agentId: string,
  leadId: string,
): Promise<HistoryView[]> {
  const { rows } = await db.query<HistoryView & { created_at: Date | string }>(
    `SELECT history_id, event, source_id, changes, details, created_at
       FROM lead_history WHERE agent_id = $1 AND lead_id = $2
      ORDER BY created_at, seq`,
    [agentId, leadId],
  );
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at) }));
}

const FIELD_NAMES = Object.keys(LEAD_FIELDS);

/**
 * The ids, every canonical field by its name (null when the lead has none), then the record's own
 * columns. The ids and columns are written after the fields, so a stray key in `fields` can never
 * shadow them. Written into one object, key by key: building the fields apart and spreading them
 * in cost four times as much, and the dispatcher reads a view of every lead it follows up.
 */
function toLeadView(row: LeadRow): LeadView {
  const view: Record<string, unknown> = {
    lead_id: row.lead_id,
    agent_id: row.agent_id,
    source_id: row.source_id,
  };
  for (const name of FIELD_NAMES) view[name] = null;
  const fields = row.fields ?? {};
  // A stored "__proto__" (JSON.parse makes it an own key) would set the view's prototype: skipped.
  for (const key in fields) if (Object.hasOwn(fields, key) && key !== '__proto__') view[key] = fields[key];
  // The ids keep their place, first, and their own values whatever `fields` holds.
  view.lead_id = row.lead_id;
  view.agent_id = row.agent_id;
  view.source_id = row.source_id;
  view.status = row.status;
  view.name = row.name;
  view.first_name = row.first_name;
  view.last_name = row.last_name;
  view.phone = row.phone;
  view.email = row.email;
  view.campaign_name = row.campaign_name;
  view.idempotency_key = row.idempotency_key;
  view.custom_fields = row.custom_fields ?? {};
  view.consent = row.consent ?? null;
  view.consent_check = row.consent_check ?? null;
  // A lead stored before screening was on no list as far as anyone knew.
  view.screening = row.screening ?? [];
  view.body_format = row.body_format;
  view.created_at = iso(row.created_at);
  view.updated_at = iso(row.updated_at);
  if (row.opt_out !== undefined)
    view.opt_out = row.opt_out ? { ...row.opt_out, at: iso(row.opt_out.at) } : null;
  return view as LeadView;
}

/** ILIKE treats % and _ as wildcards and \ as their escape: match them literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function encodeLeadCursor(cursor: LeadCursor): string {
  return Buffer.from(`${cursor.created_at}|${cursor.lead_id}`, 'utf8').toString('base64url');
}

const CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** null when the text is not a cursor this service issued. */
export function decodeLeadCursor(text: string): LeadCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  const match = CURSOR.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) return null;
  if (!DateTime.fromISO(match[1], { zone: 'utc' }).isValid) return null;
  return { created_at: match[1], lead_id: match[2].toLowerCase() };
}
