import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import type { CadenceStep } from './cadence-plan.ts';

/** A cadence as the admin API answers it. */
export interface CadenceRow {
  cadence_id: string;
  agent_id: string;
  name: string;
  steps: CadenceStep[];
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'cadence_id, agent_id, name, steps, created_at, updated_at';

const toCadence = (row: CadenceRow): CadenceRow => ({
  ...row,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function createCadence(
  db: Queryable,
  agentId: string,
  input: { name: string; steps: readonly CadenceStep[] },
): Promise<CadenceRow> {
  const { rows } = await db.query<CadenceRow>(
    `INSERT INTO cadences (agent_id, cadence_id, name, steps) VALUES ($1, $2, $3, $4::jsonb) RETURNING ${COLUMNS}`,
    [agentId, newId(), input.name, JSON.stringify(input.steps)],
  );
  return toCadence(rows[0] as CadenceRow);
}

/** The agent's cadences, oldest first. */
export async function listCadences(db: Queryable, agentId: string): Promise<CadenceRow[]> {
  const { rows } = await db.query<CadenceRow>(
    `SELECT ${COLUMNS} FROM cadences WHERE agent_id = $1 ORDER BY created_at, cadence_id`,
    [agentId],
  );
  return rows.map(toCadence);
}

export async function getCadence(
  db: Queryable,
  agentId: string,
  cadenceId: string,
): Promise<CadenceRow | null> {
  const { rows } = await db.query<CadenceRow>(
    `SELECT ${COLUMNS} FROM cadences WHERE agent_id = $1 AND cadence_id = $2`,
    [agentId, cadenceId],
  );
  return rows[0] ? toCadence(rows[0]) : null;
}

/** Renames it or replaces its steps; leads already following it keep the plan they were given. */
export async function updateCadence(
  db: Queryable,
  agentId: string,
  cadenceId: string,
  patch: { name?: string; steps?: readonly CadenceStep[] },
): Promise<CadenceRow | null> {
  const { rows } = await db.query<CadenceRow>(
    `UPDATE cadences SET name = COALESCE($3, name), steps = COALESCE($4::jsonb, steps), updated_at = now()
      WHERE agent_id = $1 AND cadence_id = $2 RETURNING ${COLUMNS}`,
    [agentId, cadenceId, patch.name ?? null, patch.steps ? JSON.stringify(patch.steps) : null],
  );
  return rows[0] ? toCadence(rows[0]) : null;
}

/** Deletes it: sources and the agent's default no longer name it; leads following it finish their plan. */
export async function deleteCadence(db: Queryable, agentId: string, cadenceId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM cadences WHERE agent_id = $1 AND cadence_id = $2', [
    agentId,
    cadenceId,
  ]);
  return rowCount > 0;
}

/** A cadence a lead of a source would follow: the source's own, else its agent's default. */
export interface ChosenCadence {
  cadence_id: string;
  name: string;
  steps: CadenceStep[];
}

/**
 * The cadence each new lead would follow, as an SQL expression of the lead's agent and its source:
 * the source's (its own agent's cadence), else the lead's agent's default. Null: none.
 */
export const chosenCadenceSql = (agent: string, source: string): string =>
  `(SELECT jsonb_build_object('cadence_id', c.cadence_id, 'name', c.name, 'steps', c.steps)
      FROM sources s JOIN agents a ON a.agent_id = ${agent}
      JOIN cadences c ON c.agent_id = CASE WHEN s.cadence_id IS NULL THEN a.agent_id ELSE s.agent_id END
                     AND c.cadence_id = COALESCE(s.cadence_id, a.default_cadence_id)
     WHERE s.source_id = ${source})`;

/** The cadence each of these new leads follows (`chosenCadenceSql`), by lead id, in one query. */
export async function cadencesOfNewLeads(
  db: Queryable,
  leads: ReadonlyArray<{ agent_id: string; lead_id: string; source_id: string }>,
): Promise<Map<string, ChosenCadence>> {
  if (leads.length === 0) return new Map();
  const { rows } = await db.query<{ lead_id: string; cadence: ChosenCadence | null }>(
    `SELECT n.lead_id, ${chosenCadenceSql('n.agent_id', 'n.source_id')} AS cadence
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS n (agent_id, lead_id, source_id)`,
    [leads.map((l) => l.agent_id), leads.map((l) => l.lead_id), leads.map((l) => l.source_id)],
  );
  return new Map(rows.flatMap((r) => (r.cadence ? [[r.lead_id, r.cadence] as const] : [])));
}

/** A lead enrolled in a cadence: the copy of its name and steps, and when each step falls due. */
export interface Enrollment {
  agent_id: string;
  lead_id: string;
  cadence: ChosenCadence;
  started_at: Date;
  due: readonly Date[];
}

/** Enrolls leads, in the caller's transaction: a plan per lead and its steps, two statements for all. */
export async function enroll(tx: Queryable, enrollments: readonly Enrollment[]): Promise<void> {
  if (enrollments.length === 0) return;
  const steps = enrollments.flatMap((e) =>
    e.cadence.steps.map((step, i) => ({ e, step, i, due: e.due[i] ?? e.started_at })),
  );
  await Promise.all([
    tx.query(
      `INSERT INTO cadence_runs (agent_id, lead_id, cadence_id, name, started_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[])
       ON CONFLICT (agent_id, lead_id) DO NOTHING`,
      [
        enrollments.map((e) => e.agent_id),
        enrollments.map((e) => e.lead_id),
        enrollments.map((e) => e.cadence.cadence_id),
        enrollments.map((e) => e.cadence.name),
        enrollments.map((e) => e.started_at.toISOString()),
      ],
    ),
    tx.query(
      `INSERT INTO cadence_steps (agent_id, lead_id, step_no, step_id, action, body, due_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::uuid[], $5::text[], $6::text[], $7::timestamptz[])
       ON CONFLICT (agent_id, lead_id, step_no) DO NOTHING`,
      [
        steps.map((s) => s.e.agent_id),
        steps.map((s) => s.e.lead_id),
        steps.map((s) => s.i),
        steps.map(() => newId()),
        steps.map((s) => s.step.action),
        steps.map((s) => s.step.body ?? null),
        steps.map((s) => s.due.toISOString()),
      ],
    ),
  ]);
}
