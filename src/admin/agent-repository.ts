import { isPgError } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import { appError } from '../errors.ts';

export interface AgentRow {
  agent_id: string;
  name: string;
  timezone: string;
  /** The console login; null: the agent has none. */
  email: string | null;
  /** The first text to new leads; null: the default (docs/outbox.md, "Texts and calls"). */
  sms_template: string | null;
  /** The number the agent texts from (E.164), which its prospects answer; null: the provider's. */
  sms_from: string | null;
  /** The cadence new leads of its sources without one follow (docs/cadences.md); null: none. */
  default_cadence_id: string | null;
  /** The texts before each appointment (docs/reminders.md): which are on, and their words (null: the default). */
  reminders: AgentReminders;
  /** How long an appointment lasts on the calendar feed when its booking does not say. */
  appointment_minutes: number;
  created_at: string;
}

export interface AgentReminders {
  day_before: boolean;
  hour_before: boolean;
  template: string | null;
}

/** An agent's row as read, its reminder settings in their own columns. */
type AgentColumns = Omit<AgentRow, 'reminders'> & {
  reminder_day_before: boolean;
  reminder_hour_before: boolean;
  reminder_template: string | null;
};

const COLUMNS = `agent_id, name, timezone, email, sms_template, sms_from, default_cadence_id,
  reminder_day_before, reminder_hour_before, reminder_template, appointment_minutes, created_at`;

export async function createAgent(
  db: Queryable,
  input: { name: string; timezone?: string; email?: string },
): Promise<AgentRow> {
  const { rows } = await emailUnique(() =>
    db.query<AgentColumns>(
      `INSERT INTO agents (agent_id, name, timezone, email) VALUES ($1, $2, COALESCE($3, 'America/New_York'), $4)
     RETURNING ${COLUMNS}`,
      [newId(), input.name, input.timezone ?? null, input.email ?? null],
    ),
  );
  return toAgent(rows[0]);
}

export async function getAgent(db: Queryable, agentId: string): Promise<AgentRow | null> {
  const { rows } = await db.query<AgentColumns>(`SELECT ${COLUMNS} FROM agents WHERE agent_id = $1`, [
    agentId,
  ]);
  return rows[0] ? toAgent(rows[0]) : null;
}

/**
 * Agents in the order they were made (their ids are in time order), `limit` a page, after the
 * agent `after` when given; `owner` limits the list to that one agent (an agent key's own).
 */
export async function listAgents(
  db: Queryable,
  page: { limit: number; after: string | null; owner: string | null },
): Promise<{ agents: AgentRow[]; next: string | null }> {
  const { rows } = await db.query<AgentColumns>(
    `SELECT ${COLUMNS} FROM agents
      WHERE ($1::uuid IS NULL OR agent_id > $1::uuid) AND ($2::uuid IS NULL OR agent_id = $2::uuid)
      ORDER BY agent_id LIMIT $3`,
    [page.after, page.owner, page.limit + 1],
  );
  const agents = rows.slice(0, page.limit).map(toAgent);
  return { agents, next: rows.length > page.limit ? (agents[agents.length - 1]?.agent_id ?? null) : null };
}

/** Changes what is given; `sms_template: null` returns to the default text, `email: null` removes the login. */
export async function updateAgent(
  db: Queryable,
  agentId: string,
  patch: {
    name?: string;
    timezone?: string;
    sms_template?: string | null;
    email?: string | null;
    sms_from?: string | null;
    default_cadence_id?: string | null;
    reminders?: Partial<AgentReminders>;
    appointment_minutes?: number;
  },
): Promise<AgentRow | null> {
  const reminders = patch.reminders ?? {};
  const { rows } = await emailUnique(() =>
    db.query<AgentColumns>(
      `UPDATE agents SET name = COALESCE($2, name), timezone = COALESCE($3, timezone),
            sms_template = CASE WHEN $4::boolean THEN $5 ELSE sms_template END,
            email = CASE WHEN $6::boolean THEN $7 ELSE email END,
            sms_from = CASE WHEN $8::boolean THEN $9 ELSE sms_from END,
            default_cadence_id = CASE WHEN $10::boolean THEN $11::uuid ELSE default_cadence_id END,
            reminder_day_before = COALESCE($12, reminder_day_before),
            reminder_hour_before = COALESCE($13, reminder_hour_before),
            reminder_template = CASE WHEN $14::boolean THEN $15 ELSE reminder_template END,
            appointment_minutes = COALESCE($16, appointment_minutes)
      WHERE agent_id = $1 RETURNING ${COLUMNS}`,
      [
        agentId,
        patch.name ?? null,
        patch.timezone ?? null,
        patch.sms_template !== undefined,
        patch.sms_template ?? null,
        patch.email !== undefined,
        patch.email ?? null,
        patch.sms_from !== undefined,
        patch.sms_from ?? null,
        patch.default_cadence_id !== undefined,
        patch.default_cadence_id ?? null,
        reminders.day_before ?? null,
        reminders.hour_before ?? null,
        reminders.template !== undefined,
        reminders.template ?? null,
        patch.appointment_minutes ?? null,
      ],
    ),
  );
  return rows[0] ? toAgent(rows[0]) : null;
}

/** Sets the console password (an Argon2id hash) and ends the agent's console sessions everywhere. */
export async function setAgentPassword(
  db: Queryable,
  agentId: string,
  passwordHash: string,
): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE agents SET password_hash = $2 WHERE agent_id = $1`, [
    agentId,
    passwordHash,
  ]);
  if (rowCount > 0) await db.query(`DELETE FROM console_sessions WHERE agent_id = $1`, [agentId]);
  return rowCount > 0;
}

/** The agent whose console login is `email` (any case), with its password hash. */
export async function findAgentLogin(
  db: Queryable,
  email: string,
): Promise<{ agent_id: string; password_hash: string | null } | null> {
  const { rows } = await db.query<{ agent_id: string; password_hash: string | null }>(
    `SELECT agent_id, password_hash FROM agents WHERE lower(email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

async function emailUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isPgError(err) && err.code === '23505' && err.constraint === 'agents_sms_from_idx')
      throw appError('SMS_FROM_TAKEN', 'Another agent already texts from this number');
    if (isPgError(err) && err.code === '23505')
      throw appError('EMAIL_TAKEN', 'Another agent already logs in with this email');
    // The database holds an agent's default to its own cadences.
    if (isPgError(err) && err.code === '23503') throw appError('CADENCE_NOT_FOUND');
    throw err;
  }
}

function toAgent(row: AgentColumns | undefined): AgentRow {
  if (!row) throw new Error('expected an agent row');
  const { reminder_day_before, reminder_hour_before, reminder_template, ...agent } = row;
  return {
    ...agent,
    reminders: {
      day_before: reminder_day_before,
      hour_before: reminder_hour_before,
      template: reminder_template,
    },
    created_at: iso(row.created_at),
  };
}
