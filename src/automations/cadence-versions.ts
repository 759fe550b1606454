import type { Queryable } from '../db/index.ts';
import type { CadenceStep } from './cadence-plan.ts';

/** A version of a cadence: its owner, its id and its number. */
export interface VersionKey {
  agent_id: string;
  cadence_id: string;
  version: number;
}

const keyOf = (v: VersionKey) => `${v.agent_id} ${v.cadence_id} ${v.version}`;

// A version is never changed once written, so the steps a process has read stay true: each plan
// that falls due, and each round of new leads, reads its version's steps here, not from the database.
const kept = new Map<string, CadenceStep[]>();
const KEPT_MAX = 10_000;

/** The steps of these versions, by `keyOf`: those this process read before, the others in one query. */
export async function versionSteps(
  db: Queryable,
  versions: readonly VersionKey[],
): Promise<(v: VersionKey) => CadenceStep[] | undefined> {
  const missing = versions.filter((v) => !kept.has(keyOf(v)));
  if (missing.length > 0) {
    const { rows } = await db.query<VersionKey & { steps: CadenceStep[] }>(
      `SELECT v.agent_id, v.cadence_id, v.version, v.steps FROM cadence_versions v
         JOIN unnest($1::uuid[], $2::uuid[], $3::int[]) AS k (agent_id, cadence_id, version)
           ON v.agent_id = k.agent_id AND v.cadence_id = k.cadence_id AND v.version = k.version`,
      [missing.map((v) => v.agent_id), missing.map((v) => v.cadence_id), missing.map((v) => v.version)],
    );
    if (kept.size + rows.length > KEPT_MAX) kept.clear();
    for (const row of rows) kept.set(keyOf(row), row.steps);
  }
  return (v) => kept.get(keyOf(v));
}
