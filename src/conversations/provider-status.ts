import type { Queryable } from '../db/index.ts';

/** The provider's words on a sent text that the thread shows, each later than the one before it. */
export const PROVIDER_STATUSES = ['sent', 'delivered', 'undelivered', 'failed'] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];

/** How far along each status is: a callback never takes a text back to an earlier one. */
const RANK = `CASE $4 WHEN 'sent' THEN 1 ELSE 2 END`;
const HAD = `CASE WHEN provider_status IS NULL THEN 0 WHEN provider_status = 'sent' THEN 1 ELSE 2 END`;

/**
 * Records what the provider said became of a text, by its row; the provider's id, when the row has
 * one already, must be the same. False when there is no such text or it knows better already.
 */
export async function recordProviderStatus(
  db: Queryable,
  s: {
    agent_id: string;
    sms_id: string;
    provider_id: string | null;
    status: ProviderStatus;
    error: string | null;
  },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE sms_messages SET provider_status = $4, provider_error = $5
      WHERE agent_id = $1 AND sms_id = $2 AND (provider_id IS NULL OR $3::text IS NULL OR provider_id = $3)
        AND ${HAD} < ${RANK}`,
    [s.agent_id, s.sms_id, s.provider_id, s.status, s.error],
  );
  return rowCount > 0;
}
