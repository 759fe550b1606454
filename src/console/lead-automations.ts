import { callBlockOf } from '../automations/screen-contact.ts';
import { iso, type Queryable } from '../db/index.ts';
import { screenedColumns, type ScreenedRow } from '../screening/screening-sql.ts';

export interface LeadAutomations {
  webhooks: Array<{
    delivery_id: string;
    topic: string;
    kind: string | null;
    url: string | null;
    status: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    created_at: string;
  }>;
  texts: Array<{
    to_phone: string;
    body: string;
    status: string;
    provider: string | null;
    send_at: string;
    sent_at: string | null;
    error: string | null;
  }>;
  calls: Array<{ task_id: string; status: string; created_at: string }>;
}

/** What the automations did for one lead: its webhook deliveries, texts and call tasks. */
export async function leadAutomations(
  db: Queryable,
  agentId: string,
  leadId: string,
  now: Date,
): Promise<LeadAutomations> {
  const [webhooks, texts, calls] = await Promise.all([
    db.query<LeadAutomations['webhooks'][number] & { created_at: Date }>(
      `SELECT w.delivery_id, w.topic, d.kind, d.url, w.status, w.attempts, w.last_status, w.last_error, w.created_at
         FROM webhook_deliveries w
         LEFT JOIN sync_destinations d ON d.agent_id = w.agent_id AND d.destination_id = w.destination_id
        WHERE w.agent_id = $1 AND w.lead_id = $2 ORDER BY w.created_at, w.seq`,
      [agentId, leadId],
    ),
    db.query<{
      to_phone: string;
      body: string;
      status: string;
      provider: string | null;
      send_at: Date;
      sent_at: Date | null;
      error: string | null;
    }>(
      `SELECT to_phone, body, status, provider, send_at, sent_at, error FROM sms_messages
        WHERE agent_id = $1 AND lead_id = $2 ORDER BY created_at`,
      [agentId, leadId],
    ),
    db.query<
      ScreenedRow & { task_id: string; status: string; created_at: Date; fields: Record<string, unknown> }
    >(
      `SELECT t.task_id, t.status, t.created_at, l.fields, ${screenedColumns('l.agent_id', 'l.phone', 'l.email')}
         FROM dial_tasks t JOIN leads l ON l.agent_id = t.agent_id AND l.lead_id = t.lead_id
        WHERE t.agent_id = $1 AND t.lead_id = $2 ORDER BY t.created_at`,
      [agentId, leadId],
    ),
  ]);
  return {
    webhooks: webhooks.rows.map((r) => ({ ...r, created_at: iso(r.created_at) })),
    texts: texts.rows.map((r) => ({
      ...r,
      send_at: iso(r.send_at),
      sent_at: r.sent_at === null ? null : iso(r.sent_at),
    })),
    // An open task screened again as the dial queue screens it: one a list blocks now shows blocked.
    calls: calls.rows.map((r) => ({
      task_id: r.task_id,
      status: r.status === 'open' && callBlockOf(r, r.fields, now) ? 'blocked' : r.status,
      created_at: iso(r.created_at),
    })),
  };
}
