import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import { planDueTimes, type CadenceStep } from './cadence-plan.ts';
import { versionSteps } from './cadence-versions.ts';
import { leadZone } from './lead-zone.ts';

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

/** The version a statement's `c` wrote, kept for the leads that will follow it. */
const KEEP_VERSION = `v AS (INSERT INTO cadence_versions (agent_id, cadence_id, version, name, steps)
     SELECT agent_id, cadence_id, version, name, steps FROM c)`;

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
    `WITH c AS (INSERT INTO cadences (agent_id, cadence_id, name, steps) VALUES ($1, $2, $3, $4::jsonb) RETURNING *),
     ${KEEP_VERSION}
     SELECT ${COLUMNS} FROM c`,
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

/** Renames it or replaces its steps, as a new version; leads already following it keep theirs. */
export async function updateCadence(
  db: Queryable,
  agentId: string,
  cadenceId: string,
  patch: { name?: string; steps?: readonly CadenceStep[] },
): Promise<CadenceRow | null> {
  const { rows } = await db.query<CadenceRow>(
    `WITH c AS (UPDATE cadences SET name = COALESCE($3, name), steps = COALESCE($4::jsonb, steps),
                       version = version + 1, updated_at = now()
                 WHERE agent_id = $1 AND cadence_id = $2 RETURNING *),
     ${KEEP_VERSION}
     SELECT ${COLUMNS} FROM c`,
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
  /** The cadence's owner: the source's agent, or the lead's for its default. */
  agent_id: string;
  cadence_id: string;
  /** Its version now, whose steps the lead will follow (cadence-versions.ts). */
  version: number;
  name: string;
}

/**
 * The cadence each new lead would follow, as an SQL expression of the lead's agent and its source:
 * the source's (its own agent's cadence), else the lead's agent's default. Null: none.
 */
export const chosenCadenceSql = (agent: string, source: string): string =>
  `(SELECT jsonb_build_object('agent_id', c.agent_id, 'cadence_id', c.cadence_id, 'version', c.version,
                              'name', c.name)
      FROM sources s JOIN agents a ON a.agent_id = ${agent}
      JOIN cadences c ON c.agent_id = CASE WHEN s.cadence_id IS NULL THEN a.agent_id ELSE s.agent_id END
                     AND c.cadence_id = COALESCE(s.cadence_id, a.default_cadence_id)
     WHERE s.source_id = ${source})`;

/** The cadence a new lead follows, and the steps of its version now. */
export interface NewLeadCadence {
  cadence: ChosenCadence;
  steps: CadenceStep[];
}

/**
 * The cadence each of these new leads follows (`chosenCadenceSql`) with its steps, by lead id: asked
 * once per agent and source, which a round's leads share.
 */
export async function cadencesOfNewLeads(
  db: Queryable,
  leads: ReadonlyArray<{ agent_id: string; lead_id: string; source_id: string }>,
): Promise<Map<string, NewLeadCadence>> {
  if (leads.length === 0) return new Map();
  const pairOf = (l: { agent_id: string; source_id: string }) => `${l.agent_id} ${l.source_id}`;
  const pairs = [...new Map(leads.map((l) => [pairOf(l), l])).values()];
  const { rows } = await db.query<{ agent_id: string; source_id: string; cadence: ChosenCadence | null }>(
    `SELECT n.agent_id, n.source_id, ${chosenCadenceSql('n.agent_id', 'n.source_id')} AS cadence
       FROM unnest($1::uuid[], $2::uuid[]) AS n (agent_id, source_id)`,
    [pairs.map((l) => l.agent_id), pairs.map((l) => l.source_id)],
  );
  const chosen = new Map(rows.flatMap((r) => (r.cadence ? [[pairOf(r), r.cadence] as const] : [])));
  if (chosen.size === 0) return new Map();
  const stepsOf = await versionSteps(db, [...chosen.values()]);
  return new Map(
    leads.flatMap((l) => {
      const cadence = chosen.get(pairOf(l));
      const steps = cadence && stepsOf(cadence);
      return cadence && steps ? [[l.lead_id, { cadence, steps }] as const] : [];
    }),
  );
}

/** A lead enrolled in a cadence: the version it follows, where its times start, its first step's. */
export interface Enrollment {
  agent_id: string;
  lead_id: string;
  cadence: ChosenCadence;
  started_at: Date;
  zone: string;
  state: string | null;
  first_due: Date;
}

/**
 * A new lead's enrollment: its plan starts from the moment it is handed on (within a poll of its
 * delivery, as its first text would), in the prospect's zone and state. Each step's time is worked
 * out when the one before it is done: here, only the first's. Pure.
 */
export function enrollment(
  agentId: string,
  lead: Record<string, unknown> & { lead_id: string },
  agentZone: string,
  { cadence, steps }: NewLeadCadence,
  now: Date,
): Enrollment {
  const zone = leadZone(lead, agentZone);
  const state = typeof lead.state === 'string' ? lead.state : null;
  const [first_due = now] = planDueTimes(steps.slice(0, 1), { delivered_at: now, zone, state });
  return { agent_id: agentId, lead_id: lead.lead_id, cadence, started_at: now, zone, state, first_due };
}

/** Enrolls leads, in the caller's transaction: one row per lead, one statement for all. */
export async function enroll(tx: Queryable, enrollments: readonly Enrollment[]): Promise<void> {
  if (enrollments.length === 0) return;
  await tx.query(
    `INSERT INTO cadence_runs (agent_id, lead_id, cadence_agent_id, cadence_id, version, started_at, zone, state, due_at)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::int[], $6::timestamptz[],
                          $7::text[], $8::text[], $9::timestamptz[])
     ON CONFLICT (agent_id, lead_id) DO NOTHING`,
    [
      enrollments.map((e) => e.agent_id),
      enrollments.map((e) => e.lead_id),
      enrollments.map((e) => e.cadence.agent_id),
      enrollments.map((e) => e.cadence.cadence_id),
      enrollments.map((e) => e.cadence.version),
      enrollments.map((e) => e.started_at.toISOString()),
      enrollments.map((e) => e.zone),
      enrollments.map((e) => e.state),
      enrollments.map((e) => e.first_due.toISOString()),
    ],
  );
}
