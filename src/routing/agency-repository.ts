import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import type { Member } from './route.ts';

/** An agency as the admin API shows it. */
export interface Agency {
  agency_id: string;
  name: string;
  fallback_agent_id: string;
  timezone: string;
  claim_minutes: number | null;
  created_at: string;
}

/** A producer of an agency as the admin API shows it. */
export interface MemberView {
  agent_id: string;
  name: string;
  licensed_states: string[];
  weight: number;
  daily_cap: number | null;
  active: boolean;
  assigned_today: number;
}

export interface MemberInput {
  licensed_states: string[];
  weight: number;
  daily_cap: number | null;
  active: boolean;
}

interface AgencyRow extends Omit<Agency, 'created_at'> {
  created_at: Date | string;
}

const AGENCY_COLUMNS = 'agency_id, name, fallback_agent_id, timezone, claim_minutes, created_at';

const toAgency = (row: AgencyRow): Agency => ({ ...row, created_at: iso(row.created_at) });

/** The agency's calendar day now: the day a daily cap counts. */
export const AGENCY_DAY = `(now() AT TIME ZONE a.timezone)::date`;

/** Leads given today: the count is of `assigned_day`, which is today or a day gone. */
const ASSIGNED_TODAY = `CASE WHEN m.assigned_day = ${AGENCY_DAY} THEN m.assigned_count ELSE 0 END`;

export async function createAgency(
  db: Queryable,
  input: { name: string; fallback_agent_id: string; timezone: string; claim_minutes: number | null },
): Promise<Agency> {
  const { rows } = await db.query<AgencyRow>(
    `INSERT INTO agencies (agency_id, name, fallback_agent_id, timezone, claim_minutes)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${AGENCY_COLUMNS}`,
    [newId(), input.name, input.fallback_agent_id, input.timezone, input.claim_minutes],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return toAgency(row);
}

export async function findAgency(db: Queryable, agencyId: string): Promise<Agency | null> {
  const { rows } = await db.query<AgencyRow>(`SELECT ${AGENCY_COLUMNS} FROM agencies WHERE agency_id = $1`, [
    agencyId,
  ]);
  return rows[0] ? toAgency(rows[0]) : null;
}

/** The agencies an agent is the fallback producer of: the ones it manages. */
export async function listAgencies(db: Queryable, agentId: string): Promise<Agency[]> {
  const { rows } = await db.query<AgencyRow>(
    `SELECT ${AGENCY_COLUMNS} FROM agencies WHERE fallback_agent_id = $1 ORDER BY created_at, agency_id`,
    [agentId],
  );
  return rows.map(toAgency);
}

export async function updateAgency(
  db: Queryable,
  agencyId: string,
  patch: Partial<Pick<Agency, 'name' | 'fallback_agent_id' | 'timezone' | 'claim_minutes'>>,
): Promise<Agency | null> {
  const { rows } = await db.query<AgencyRow>(
    `UPDATE agencies SET
       name = CASE WHEN $2 THEN $3 ELSE name END,
       fallback_agent_id = CASE WHEN $4 THEN $5::uuid ELSE fallback_agent_id END,
       timezone = CASE WHEN $6 THEN $7 ELSE timezone END,
       claim_minutes = CASE WHEN $8 THEN $9::integer ELSE claim_minutes END,
       updated_at = now()
     WHERE agency_id = $1 RETURNING ${AGENCY_COLUMNS}`,
    [
      agencyId,
      patch.name !== undefined,
      patch.name ?? null,
      patch.fallback_agent_id !== undefined,
      patch.fallback_agent_id ?? null,
      patch.timezone !== undefined,
      patch.timezone ?? null,
      patch.claim_minutes !== undefined,
      patch.claim_minutes ?? null,
    ],
  );
  return rows[0] ? toAgency(rows[0]) : null;
}

const MEMBER_VIEW = `m.agent_id, ag.name, m.licensed_states, m.weight, m.daily_cap, m.active,
  ${ASSIGNED_TODAY}::int AS assigned_today`;

/** The agency's producers in the order they joined (the rotation's seat order). */
export async function listMembers(db: Queryable, agencyId: string): Promise<MemberView[]> {
  const { rows } = await db.query<MemberView>(
    `SELECT ${MEMBER_VIEW} FROM agency_members m JOIN agencies a USING (agency_id)
       JOIN agents ag ON ag.agent_id = m.agent_id
      WHERE m.agency_id = $1 ORDER BY m.joined_at, m.agent_id`,
    [agencyId],
  );
  return rows;
}

/**
 * Adds or replaces a producer. A producer who joins, or comes back from a pause, starts with no
 * rotation credit: it takes its share from now on, not a burst for the leads it was not there for.
 */
export async function putMember(
  db: Queryable,
  agencyId: string,
  agentId: string,
  input: MemberInput,
): Promise<{ member: MemberView; created: boolean }> {
  const { rows } = await db.query<{ created: boolean }>(
    `INSERT INTO agency_members AS m (agency_id, agent_id, licensed_states, weight, daily_cap, active)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (agency_id, agent_id) DO UPDATE SET
       licensed_states = EXCLUDED.licensed_states, weight = EXCLUDED.weight,
       daily_cap = EXCLUDED.daily_cap, active = EXCLUDED.active,
       credit = CASE WHEN EXCLUDED.active AND NOT m.active THEN 0 ELSE m.credit END
     RETURNING (xmax = 0) AS created`,
    [agencyId, agentId, input.licensed_states, input.weight, input.daily_cap, input.active],
  );
  const member = (await listMembers(db, agencyId)).find((m) => m.agent_id === agentId);
  if (!member || !rows[0]) throw new Error('a member just written is not there');
  return { member, created: rows[0].created };
}

/** Whether `agentId` is a producer of the agency: one the operator added or who accepted an invitation. */
export async function isMember(db: Queryable, agencyId: string, agentId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM agency_members WHERE agency_id = $1 AND agent_id = $2', [
    agencyId,
    agentId,
  ]);
  return rows.length > 0;
}

/** An agency an agent produces for, with its terms there. */
export interface Membership extends Omit<MemberView, 'agent_id' | 'name'> {
  agency_id: string;
  agency_name: string;
}

/** The agencies an agent is a producer of, in the order it joined them. */
export async function listMemberships(db: Queryable, agentId: string): Promise<Membership[]> {
  const { rows } = await db.query<Membership>(
    `SELECT a.agency_id, a.name AS agency_name, m.licensed_states, m.weight, m.daily_cap, m.active,
            ${ASSIGNED_TODAY}::int AS assigned_today
       FROM agency_members m JOIN agencies a USING (agency_id)
      WHERE m.agent_id = $1 ORDER BY m.joined_at, a.agency_id`,
    [agentId],
  );
  return rows;
}

export async function deleteMember(db: Queryable, agencyId: string, agentId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM agency_members WHERE agency_id = $1 AND agent_id = $2', [
    agencyId,
    agentId,
  ]);
  return rowCount > 0;
}

/** An agency as the routing of one lead reads it: the fallback producer and every member, in seat order. */
export interface AgencyForRouting {
  agency_id: string;
  fallback_agent_id: string;
  timezone: string;
  claim_minutes: number | null;
  members: Member[];
  /** Every producer's own time zone (a merge dates the lead in it), the fallback's included. */
  zones: Map<string, string>;
}

/**
 * Reads the agency for routing a lead. `lock`: its row and its members' rows stay locked until the
 * transaction ends, so the agency's deliveries (in any process) route one at a time: each sees the
 * rotation and the counts the one before left, and the contacts it wrote.
 */
export async function readAgencyForRouting(
  tx: Queryable,
  agencyId: string,
  lock: boolean,
): Promise<AgencyForRouting | null> {
  const { rows } = await tx.query<Omit<AgencyForRouting, 'members' | 'zones'> & { fallback_zone: string }>(
    `SELECT a.agency_id, a.fallback_agent_id, a.timezone, a.claim_minutes, f.timezone AS fallback_zone
       FROM agencies a JOIN agents f ON f.agent_id = a.fallback_agent_id
      WHERE a.agency_id = $1 ${lock ? 'FOR UPDATE OF a' : ''}`,
    [agencyId],
  );
  const agency = rows[0];
  if (!agency) return null;
  const members = await tx.query<Member & { zone: string }>(
    `SELECT m.agent_id, m.licensed_states, m.weight, m.daily_cap, m.active, m.credit,
            ${ASSIGNED_TODAY}::int AS assigned_today, ag.timezone AS zone
       FROM agency_members m JOIN agencies a USING (agency_id) JOIN agents ag ON ag.agent_id = m.agent_id
      WHERE m.agency_id = $1 ORDER BY m.joined_at, m.agent_id ${lock ? 'FOR UPDATE OF m' : ''}`,
    [agencyId],
  );
  const { fallback_zone, ...rest } = agency;
  const zones = new Map(members.rows.map((m) => [m.agent_id, m.zone]));
  if (!zones.has(rest.fallback_agent_id)) zones.set(rest.fallback_agent_id, fallback_zone);
  return { ...rest, members: members.rows.map(({ zone: _, ...m }) => m), zones };
}

/** Which of the producers `agentIds` hold a lead with this phone or email, and by which key. */
export async function findContactHolders(
  tx: Queryable,
  agentIds: readonly string[],
  keys: { phone: string | null; email: string | null },
): Promise<Array<{ agent_id: string; kind: string }>> {
  if (keys.phone === null && keys.email === null) return [];
  const { rows } = await tx.query<{ agent_id: string; kind: string }>(
    `SELECT agent_id, kind FROM lead_contacts
      WHERE agent_id = ANY($1::uuid[])
        AND ((kind = 'phone' AND value = $2) OR (kind = 'email' AND value = $3))`,
    [agentIds, keys.phone, keys.email],
  );
  return rows;
}

/**
 * The producer among `agentIds` who already has the contact: by email first, then by phone (as a
 * repeat contact of one agent is told: an email is more personal than a household's phone), and
 * among producers in `agentIds`' order.
 */
export async function findContactOwner(
  tx: Queryable,
  agentIds: readonly string[],
  keys: { phone: string | null; email: string | null },
): Promise<string | null> {
  const rank = (r: { agent_id: string; kind: string }) =>
    (r.kind === 'email' ? 0 : agentIds.length) + agentIds.indexOf(r.agent_id);
  const holders = await findContactHolders(tx, agentIds, keys);
  return holders.sort((a, b) => rank(a) - rank(b))[0]?.agent_id ?? null;
}

/** Writes what routing one lead changed: the eligible producers' credits, and the chosen one's count today. */
export async function saveRotation(
  tx: Queryable,
  agencyId: string,
  credits: ReadonlyMap<string, number>,
  counted: string | null,
): Promise<void> {
  if (credits.size === 0 && counted === null) return;
  await tx.query(
    `UPDATE agency_members m SET
       credit = COALESCE((SELECT c.credit FROM unnest($2::uuid[], $3::float8[]) AS c (agent_id, credit)
                           WHERE c.agent_id = m.agent_id), m.credit),
       assigned_count = CASE WHEN m.agent_id = $4::uuid THEN
                          CASE WHEN m.assigned_day = ${AGENCY_DAY} THEN m.assigned_count + 1 ELSE 1 END
                        ELSE m.assigned_count END,
       assigned_day = CASE WHEN m.agent_id = $4::uuid THEN ${AGENCY_DAY} ELSE m.assigned_day END
      FROM agencies a
     WHERE a.agency_id = m.agency_id AND m.agency_id = $1
       AND (m.agent_id = ANY($2::uuid[]) OR m.agent_id = $4::uuid)`,
    [agencyId, [...credits.keys()], [...credits.values()], counted],
  );
}
