import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import { insertRow, run, sql, type RowShape } from '../db/statement.ts';

/** An accepted live delivery as bought: what it cost, and whether the vendor may bill it. */
export interface NewPurchase {
  agent_id: string;
  lead_id: string;
  source_id: string;
  price_cents: number;
  billable: boolean;
  reason: string | null;
}

/** A purchase as the lead shows it. */
export interface Purchase {
  source_id: string;
  at: string;
  billable: boolean;
  price_cents: number;
  reason: string | null;
}

/** A purchase's row; `purchaseRow` gives its values. */
export const PURCHASE_ROW: RowShape = {
  table: 'lead_purchases',
  columns: [
    { name: 'agent_id', type: 'uuid' },
    { name: 'purchase_id', type: 'uuid' },
    { name: 'lead_id', type: 'uuid' },
    { name: 'source_id', type: 'uuid' },
    { name: 'price_cents', type: 'integer' },
    { name: 'billable', type: 'boolean' },
    { name: 'reason', type: 'text' },
  ],
};

export function purchaseRow(purchase: NewPurchase): Record<string, unknown> {
  return { ...purchase, purchase_id: newId() };
}

const INSERT_PURCHASE = insertRow(PURCHASE_ROW);

export async function insertPurchase(tx: Queryable, purchase: NewPurchase): Promise<void> {
  await run(tx, INSERT_PURCHASE, purchaseRow(purchase));
}

/**
 * The source's last billed delivery of a lead (`at`) and the time now (`now`), as SQL of the
 * agent's, lead's and source's ids: the database's clock, the one purchases are stamped with,
 * says how long ago that was.
 */
export const lastBilledSql = (agent: string, lead: string, source: string): string =>
  `SELECT max(created_at) AS at, clock_timestamp() AS now FROM lead_purchases
    WHERE agent_id = ${agent} AND lead_id = ${lead} AND source_id = ${source} AND billable`;

const LAST_BILLED = sql((p) =>
  lastBilledSql(p('agent_id', 'uuid'), p('lead_id', 'uuid'), p('source_id', 'uuid')),
);

/** When the source last billed a delivery of the lead (null: never), and the time now. */
export interface LastBilled {
  at: Date | null;
  now: Date;
}

/** The source's last billed delivery of the lead, which the caller has locked. */
export async function lastBilled(
  tx: Queryable,
  agentId: string,
  leadId: string,
  sourceId: string,
): Promise<LastBilled> {
  const { rows } = await run<{ at: Date | string | null; now: Date | string }, string>(tx, LAST_BILLED, {
    agent_id: agentId,
    lead_id: leadId,
    source_id: sourceId,
  });
  return toLastBilled(rows[0]);
}

/** The row of `lastBilledSql` as dates. */
export function toLastBilled(row: { at: Date | string | null; now: Date | string } | undefined): LastBilled {
  return { at: row?.at ? new Date(row.at) : null, now: row ? new Date(row.now) : new Date() };
}

/** A lead's purchases, oldest first. */
export async function listPurchases(db: Queryable, agentId: string, leadId: string): Promise<Purchase[]> {
  const { rows } = await db.query<Omit<Purchase, 'at'> & { at: unknown }>(
    `SELECT source_id, created_at AS at, billable, price_cents, reason FROM lead_purchases
      WHERE agent_id = $1 AND lead_id = $2 ORDER BY created_at, purchase_id`,
    [agentId, leadId],
  );
  return rows.map((r) => ({ ...r, at: iso(r.at) }));
}
