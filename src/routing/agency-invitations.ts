import { randomUUID } from 'node:crypto';
import { iso, type Database, type Queryable } from '../db/index.ts';
import { putMember, type MemberInput, type MemberView } from './agency-repository.ts';

/** An invitation to produce for an agency, as its manager sees it. */
export interface Invitation extends MemberInput {
  invitation_id: string;
  agency_id: string;
  agency_name: string;
  created_at: string;
  expires_at: string;
}

/** What accepting an invitation made: the producer, in which agency. */
export interface Joined {
  agency_id: string;
  agency_name: string;
  member: MemberView;
  created: boolean;
}

type InvitationRow = Omit<Invitation, 'created_at' | 'expires_at'> & {
  created_at: Date | string;
  expires_at: Date | string;
};

const COLUMNS = `i.invitation_id, i.agency_id, a.name AS agency_name, i.licensed_states, i.weight,
  i.daily_cap, i.active, i.created_at, i.expires_at`;

const toInvitation = (row: InvitationRow): Invitation => ({
  ...row,
  created_at: iso(row.created_at),
  expires_at: iso(row.expires_at),
});

/**
 * Writes an invitation with the terms the producer will have. Its id is a version 4 UUID, not the
 * time-ordered ids of other rows: whoever holds it may accept it, so it must not be guessed.
 */
export async function createInvitation(
  db: Queryable,
  agencyId: string,
  terms: MemberInput,
  validDays: number,
): Promise<Invitation> {
  const { rows } = await db.query<InvitationRow>(
    `WITH i AS (
       INSERT INTO agency_invitations (agency_id, invitation_id, licensed_states, weight, daily_cap, active, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => $7::int)) RETURNING *)
     SELECT ${COLUMNS} FROM i JOIN agencies a USING (agency_id)`,
    [agencyId, randomUUID(), terms.licensed_states, terms.weight, terms.daily_cap, terms.active, validDays],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return toInvitation(row);
}

/** The agency's invitations still open (not accepted, not expired), newest first. */
export async function listInvitations(db: Queryable, agencyId: string): Promise<Invitation[]> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM agency_invitations i JOIN agencies a USING (agency_id)
      WHERE i.agency_id = $1 AND i.accepted_at IS NULL AND i.expires_at > now()
      ORDER BY i.created_at DESC, i.invitation_id`,
    [agencyId],
  );
  return rows.map(toInvitation);
}

/** Withdraws an open invitation; false when there was none open by that id. */
export async function withdrawInvitation(
  db: Queryable,
  agencyId: string,
  invitationId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM agency_invitations
      WHERE agency_id = $1 AND invitation_id = $2 AND accepted_at IS NULL`,
    [agencyId, invitationId],
  );
  return rowCount > 0;
}

/**
 * The producer `agentId` accepts an open invitation: it joins the agency with the invitation's terms
 * (or takes them, if it was a producer already) and the invitation is used up, in one transaction
 * under the invitation's row lock, so two accepts of one invitation make one producer. Null when
 * the invitation is unknown, of another agency, used or expired.
 */
export async function acceptInvitation(
  db: Database,
  agencyId: string,
  invitationId: string,
  agentId: string,
): Promise<Joined | null> {
  return db.withTransaction(async (tx) => {
    const { rows } = await tx.query<InvitationRow>(
      `SELECT ${COLUMNS} FROM agency_invitations i JOIN agencies a USING (agency_id)
        WHERE i.agency_id = $1 AND i.invitation_id = $2 AND i.accepted_at IS NULL AND i.expires_at > now()
        FOR UPDATE OF i`,
      [agencyId, invitationId],
    );
    const invitation = rows[0];
    if (!invitation) return null;
    await tx.query(
      `UPDATE agency_invitations SET accepted_by = $3, accepted_at = now()
        WHERE agency_id = $1 AND invitation_id = $2`,
      [agencyId, invitationId, agentId],
    );
    const { member, created } = await putMember(tx, agencyId, agentId, invitation);
    return { agency_id: agencyId, agency_name: invitation.agency_name, member, created };
  });
}
