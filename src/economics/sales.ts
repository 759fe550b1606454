import { newId } from '../db/ids.ts';
import { iso, type Database, type Queryable } from '../db/index.ts';
import { changeLead, lockLeadFor, type LeadTarget } from '../leads/lead-changes.ts';
import type { LeadStatus } from '../leads/lead-status.ts';

export interface NewSale {
  premium_cents: number;
  product: string | null;
  sold_at: Date;
}

/** A sale as it is kept: what the lead's read lists. */
export interface LeadSale {
  sale_id: string;
  lead_id: string;
  source_id: string;
  premium_cents: number;
  product: string | null;
  sold_at: string;
  created_at: string;
}

/** A sale as its recording answers: the record, and what it did to the lead's status. */
export type Sale = LeadSale & { status: LeadStatus; status_from: LeadStatus };

export type SaleResult = ({ ok: true } & Sale) | { ok: false; code: 'LEAD_NOT_FOUND' };

/**
 * A policy sold to a lead, told as a story in one transaction: lock the lead, write the sale, make
 * the lead Sold with its history line, and write `lead.sold` for the source's destinations. The
 * sale counts for the lead's source in the report (docs/economics.md).
 */
export async function recordSale(
  db: Database,
  target: LeadTarget,
  sale: NewSale,
  now: Date,
): Promise<SaleResult> {
  return db.withTransaction(async (tx) => {
    const lead = await lockLeadFor(tx, target);
    if (!lead) return { ok: false, code: 'LEAD_NOT_FOUND' };
    const saleId = newId(now.getTime());
    const { rows } = await tx.query<SaleRow>(
      `INSERT INTO lead_sales (agent_id, sale_id, lead_id, source_id, premium_cents, product, sold_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${SALE_COLUMNS}`,
      [
        lead.agent_id,
        saleId,
        lead.lead_id,
        lead.source_id,
        sale.premium_cents,
        sale.product,
        sale.sold_at.toISOString(),
        now.toISOString(),
      ],
    );
    if (!rows[0]) throw new Error('the sale was not written');
    const made = toSale(rows[0]);
    const details = { sale_id: saleId, premium_cents: sale.premium_cents, product: sale.product };
    await changeLead(
      tx,
      lead,
      {
        status: 'Sold',
        event: 'sold',
        details,
        messages: [
          {
            topic: 'lead.sold',
            payload: { lead_id: lead.lead_id, source_id: lead.source_id, ...details, sold_at: made.sold_at },
          },
        ],
      },
      now,
    );
    return { ok: true, ...made, status: 'Sold', status_from: lead.status };
  });
}

/** A lead's sales, in the order they were sold. The lead's own index finds them. */
export async function listLeadSales(db: Queryable, agentId: string, leadId: string): Promise<LeadSale[]> {
  const { rows } = await db.query<SaleRow>(
    `SELECT ${SALE_COLUMNS} FROM lead_sales WHERE agent_id = $1 AND lead_id = $2
      ORDER BY sold_at, created_at, sale_id`,
    [agentId, leadId],
  );
  return rows.map(toSale);
}

const SALE_COLUMNS = 'sale_id, lead_id, source_id, premium_cents, product, sold_at, created_at';

type SaleRow = Omit<LeadSale, 'sold_at' | 'created_at'> & {
  sold_at: Date | string;
  created_at: Date | string;
};

function toSale(row: SaleRow): LeadSale {
  return {
    sale_id: row.sale_id,
    lead_id: row.lead_id,
    source_id: row.source_id,
    premium_cents: row.premium_cents,
    product: row.product,
    sold_at: iso(row.sold_at),
    created_at: iso(row.created_at),
  };
}
