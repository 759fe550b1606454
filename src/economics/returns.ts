import { newId } from '../db/ids.ts';
import { iso, type Database, type Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { lockLeadFor, tellLead, type LeadTarget, type LockedLead } from '../leads/lead-changes.ts';
import {
  isReturnable,
  returnDeadline,
  returnEvidence,
  type ReturnDecision,
  type ReturnFacts,
  type ReturnReason,
} from './return-rules.ts';

export interface LeadReturn {
  return_id: string;
  lead_id: string;
  source_id: string;
  reason: ReturnReason;
  note: string | null;
  status: 'requested' | ReturnDecision;
  price_cents: number;
  evidence: JsonObject;
  created_at: string;
  decided_at: string | null;
}

export type ReturnResult =
  | ({ ok: true } & LeadReturn)
  | {
      ok: false;
      code:
        | 'LEAD_NOT_FOUND'
        | 'RETURN_NOT_FOUND'
        | 'NOTHING_TO_RETURN'
        | 'RETURN_WINDOW_CLOSED'
        | 'ALREADY_RETURNED'
        | 'RETURN_DECIDED';
      details?: string;
    };

interface Purchase {
  purchase_id: string;
  source_id: string;
  price_cents: number;
  created_at: Date;
  return_window_hours: number;
}

/**
 * A return of a lead's latest billable purchase, told in one transaction: lock the lead, find the
 * purchase and its source's window, gather the evidence, write the return (the unique key on the
 * purchase refuses a second), its history line, and `lead.returned` for the source's destinations.
 */
export async function requestReturn(
  db: Database,
  target: LeadTarget,
  ask: { reason: ReturnReason; note: string | null },
  now: Date,
): Promise<ReturnResult> {
  return db.withTransaction(async (tx) => {
    const lead = await lockLeadFor(tx, target);
    if (!lead) return { ok: false, code: 'LEAD_NOT_FOUND' };
    const purchase = await latestBillablePurchase(tx, lead);
    if (!purchase) return { ok: false, code: 'NOTHING_TO_RETURN' };
    const purchasedAt = new Date(purchase.created_at);
    if (!isReturnable(purchasedAt, purchase.return_window_hours, now)) {
      const deadline = returnDeadline(purchasedAt, purchase.return_window_hours);
      return {
        ok: false,
        code: 'RETURN_WINDOW_CLOSED',
        details: deadline
          ? `The source takes returns for ${purchase.return_window_hours} hours; this purchase's window closed at ${iso(deadline)}`
          : 'The source takes no returns (return_window_hours is 0)',
      };
    }
    const evidence = returnEvidence(ask.reason, await factsOf(tx, lead, purchase));
    const returnId = newId(now.getTime());
    const { rows } = await tx.query<{ return_id: string }>(
      `INSERT INTO lead_returns (agent_id, return_id, lead_id, source_id, purchase_id, reason, note, price_cents,
                                 evidence, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (agent_id, purchase_id) DO NOTHING RETURNING return_id`,
      [
        lead.agent_id,
        returnId,
        lead.lead_id,
        purchase.source_id,
        purchase.purchase_id,
        ask.reason,
        ask.note,
        purchase.price_cents,
        JSON.stringify(evidence),
        now.toISOString(),
      ],
    );
    if (rows.length === 0) {
      return {
        ok: false,
        code: 'ALREADY_RETURNED',
        details: 'The lead’s latest billable purchase has a return',
      };
    }
    const made: LeadReturn = {
      return_id: returnId,
      lead_id: lead.lead_id,
      source_id: purchase.source_id,
      reason: ask.reason,
      note: ask.note,
      status: 'requested',
      price_cents: purchase.price_cents,
      evidence,
      created_at: iso(now),
      decided_at: null,
    };
    await tell(tx, lead.agent_id, made, 'returned');
    return { ok: true, ...made };
  });
}

/** A vendor's answer to a return: credited or denied, once; its history line and `lead.returned`. */
export async function decideReturn(
  db: Database,
  target: { return_id: string; owner: string | null },
  decision: ReturnDecision,
  now: Date,
): Promise<ReturnResult> {
  return db.withTransaction(async (tx) => {
    const { rows } = await tx.query<ReturnRow>(
      `SELECT ${RETURN_COLUMNS} FROM lead_returns
        WHERE return_id = $1 AND ($2::uuid IS NULL OR agent_id = $2::uuid) FOR UPDATE`,
      [target.return_id, target.owner],
    );
    const row = rows[0];
    if (!row) return { ok: false, code: 'RETURN_NOT_FOUND' };
    if (row.status !== 'requested') {
      return { ok: false, code: 'RETURN_DECIDED', details: `This return was already ${row.status}` };
    }
    await tx.query(
      `UPDATE lead_returns SET status = $3, decided_at = $4 WHERE agent_id = $1 AND return_id = $2`,
      [row.agent_id, row.return_id, decision, now.toISOString()],
    );
    const decided = { ...toReturn(row), status: decision, decided_at: iso(now) };
    await tell(tx, row.agent_id, decided, `return_${decision}`);
    return { ok: true, ...decided };
  });
}

/** A lead's returns, oldest first, each with its outcome if the vendor answered. The lead's own index finds them. */
export async function listLeadReturns(db: Queryable, agentId: string, leadId: string): Promise<LeadReturn[]> {
  const { rows } = await db.query<ReturnRow>(
    `SELECT ${RETURN_COLUMNS} FROM lead_returns WHERE agent_id = $1 AND lead_id = $2
      ORDER BY created_at, return_id`,
    [agentId, leadId],
  );
  return rows.map(toReturn);
}

const RETURN_COLUMNS = `agent_id, return_id, lead_id, source_id, reason, note, status, price_cents, evidence,
  created_at, decided_at`;

type ReturnRow = Omit<LeadReturn, 'created_at' | 'decided_at'> & {
  agent_id: string;
  created_at: Date;
  decided_at: Date | null;
};

function toReturn(row: ReturnRow): LeadReturn {
  return {
    return_id: row.return_id,
    lead_id: row.lead_id,
    source_id: row.source_id,
    reason: row.reason,
    note: row.note,
    status: row.status,
    price_cents: row.price_cents,
    evidence: row.evidence,
    created_at: iso(row.created_at),
    decided_at: row.decided_at ? iso(row.decided_at) : null,
  };
}

/** The history line and the `lead.returned` message of a return or its outcome. */
async function tell(tx: Queryable, agentId: string, r: LeadReturn, event: string): Promise<void> {
  await tellLead(
    tx,
    { agent_id: agentId, lead_id: r.lead_id },
    {
      event,
      details: { return_id: r.return_id, reason: r.reason, status: r.status, price_cents: r.price_cents },
      messages: [
        {
          topic: 'lead.returned',
          payload: {
            lead_id: r.lead_id,
            source_id: r.source_id,
            return_id: r.return_id,
            reason: r.reason,
            status: r.status,
            price_cents: r.price_cents,
            evidence: r.evidence,
            note: r.note,
          },
        },
      ],
    },
  );
}

/** The purchase a return asks back: the lead's latest billable one (docs/economics.md). */
async function latestBillablePurchase(tx: Queryable, lead: LockedLead): Promise<Purchase | null> {
  const { rows } = await tx.query<Purchase>(
    `SELECT p.purchase_id, p.source_id, p.price_cents, p.created_at, s.return_window_hours
       FROM lead_purchases p JOIN sources s ON s.source_id = p.source_id
      WHERE p.agent_id = $1 AND p.lead_id = $2 AND p.billable
      ORDER BY p.created_at DESC, p.purchase_id DESC LIMIT 1`,
    [lead.agent_id, lead.lead_id],
  );
  return rows[0] ?? null;
}

/** What the evidence is made of: the lead's calls, its number, state and age, its earlier delivery. */
async function factsOf(tx: Queryable, lead: LockedLead, purchase: Purchase): Promise<ReturnFacts> {
  const [calls, earlier] = await Promise.all([
    tx.query<{ at: Date; outcome: string }>(
      `SELECT created_at AS at, details ->> 'outcome' AS outcome FROM lead_history
        WHERE agent_id = $1 AND lead_id = $2 AND event = 'call_outcome' ORDER BY created_at, history_id`,
      [lead.agent_id, lead.lead_id],
    ),
    tx.query<{ source_id: string; at: Date }>(
      `SELECT source_id, created_at AS at FROM lead_purchases
        WHERE agent_id = $1 AND lead_id = $2 AND created_at < $3
        ORDER BY created_at DESC, purchase_id DESC LIMIT 1`,
      [lead.agent_id, lead.lead_id, new Date(purchase.created_at).toISOString()],
    ),
  ]);
  const before = earlier.rows[0];
  return {
    calls: calls.rows.map((c) => ({ at: iso(c.at), outcome: c.outcome })),
    phone: lead.phone,
    state: lead.state,
    age: lead.age,
    earlier: before ? { source_id: before.source_id, delivered_at: iso(before.at) } : null,
  };
}
