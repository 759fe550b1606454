import { newId } from '../db/ids.ts';
import { iso, type Database } from '../db/index.ts';
import { insertHistory } from '../leads/lead-repository.ts';
import type { LeadStatus } from '../leads/lead-status.ts';
import { enqueue } from '../outbox/enqueue.ts';
import { lockOwnedLead, type LeadTarget } from './owned-lead.ts';

export interface NewSale {
  premium_cents: number;
  product: string | null;
  sold_at: Date;
}

export interface Sale {
  sale_id: string;
  lead_id: string;
  source_id: string;
  premium_cents: number;
  product: string | null;
  sold_at: string;
  status: LeadStatus;
  status_from: LeadStatus;
  created_at: string;
}

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
    const lead = await lockOwnedLead(tx, target);
    if (!lead) return { ok: false, code: 'LEAD_NOT_FOUND' };
    const saleId = newId(now.getTime());
    await tx.query(
      `INSERT INTO lead_sales (agent_id, sale_id, lead_id, source_id, premium_cents, product, sold_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
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
    if (lead.status !== 'Sold') {
      await tx.query(
        `UPDATE leads SET status = 'Sold', updated_at = $3 WHERE agent_id = $1 AND lead_id = $2`,
        [lead.agent_id, lead.lead_id, now.toISOString()],
      );
    }
    const details = { sale_id: saleId, premium_cents: sale.premium_cents, product: sale.product };
    await insertHistory(tx, {
      agent_id: lead.agent_id,
      lead_id: lead.lead_id,
      source_id: null,
      event: 'sold',
      changes: lead.status === 'Sold' ? {} : { status: { from: lead.status, to: 'Sold' } },
      details,
    });
    const sold_at = iso(sale.sold_at);
    await enqueue(tx, lead.agent_id, [
      {
        topic: 'lead.sold',
        payload: {
          lead_id: lead.lead_id,
          source_id: lead.source_id,
          sale_id: saleId,
          premium_cents: sale.premium_cents,
          product: sale.product,
          sold_at,
        },
      },
    ]);
    return {
      ok: true,
      sale_id: saleId,
      lead_id: lead.lead_id,
      source_id: lead.source_id,
      premium_cents: sale.premium_cents,
      product: sale.product,
      sold_at,
      status: 'Sold',
      status_from: lead.status,
      created_at: iso(now),
    };
  });
}
