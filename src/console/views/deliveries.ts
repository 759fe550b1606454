import { DELIVERY_STATUSES, retryHelps, type DeliveryView } from '../../automations/delivery-repository.ts';
import { phone, textStatus, when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { actionButton, dataTable, options } from './components.ts';

/** A text to a lead, as the deliveries page lists it. */
export interface TextRow {
  sms_id: string;
  lead_id: string;
  to_phone: string;
  status: string;
  /** Who took it: `recorder` (the default) sends nothing. */
  provider: string | null;
  /** What the provider said became of it once sent (Twilio's status callback), if it said. */
  provider_status: string | null;
  attempts: number;
  error: string | null;
  send_at: string;
  sent_at: string | null;
}

export interface DeliveriesData {
  deliveries: DeliveryView[];
  texts: TextRow[];
  /** The status filter in force, if any. */
  status: string | undefined;
  zone: string;
  csrf: string;
}

const ACTION = html`<span class="sr-only">Action</span>`;

/**
 * Webhooks to the agent's destinations and texts to its leads: where each went, what became of
 * it, and "Retry now" only where sending again can help.
 */
export function deliveriesPage(d: DeliveriesData): Html {
  return html`<main>
    <h1>Deliveries</h1>
    <p>
      Webhooks to your destinations and texts to your leads. Failed webhooks are retried on a schedule; after
      the last try they are dead letters, which you can send again.
    </p>
    <form method="get" action="/console/deliveries" class="filters">
      <label
        >Status
        <select name="status">
          ${options(DELIVERY_STATUSES, d.status)}
        </select></label
      >
      <button type="submit">Filter</button>
      <a href="/console/deliveries?status=dead">Dead letters</a>
    </form>
    <h2>Webhooks</h2>
    ${
      d.deliveries.length
        ? dataTable(
            ['Event', 'Destination', 'Status', 'HTTP', 'Error', 'Attempts', 'Next retry', 'Created', ACTION],
            d.deliveries.map((w) => webhookRow(w, d.zone, d.csrf)),
          )
        : html`<p class="empty">
            No webhook deliveries${d.status ? ` with status ${d.status}` : ''}. Add a destination in
            <a href="/console/sources">Sources</a> to send new leads to your CRM.
          </p>`
    }
    <h2>Texts</h2>
    ${
      d.texts.length
        ? dataTable(
            ['To', 'Status', 'Error', 'Attempts', 'Due or sent', ACTION],
            d.texts.map((t) => textRow(t, d.zone, d.csrf)),
          )
        : html`<p class="empty">No texts yet: leads who consent to texts get the first one here.</p>`
    }
  </main>`;
}

function webhookRow(w: DeliveryView, zone: string, csrf: string): Html {
  const tone = w.status === 'dead' ? ' bad' : w.status === 'delivered' ? ' ok' : '';
  return html`<tr>
    <td>${w.lead_id ? html`<a href="/console/leads/${w.lead_id}">${w.topic}</a>` : w.topic}</td>
    <td class="url">${w.destination_url ?? 'a removed destination'}</td>
    <td><span class="status${tone}">${w.status}</span></td>
    <td>${w.last_status ?? '—'}</td>
    <td>${w.last_error ?? '—'}</td>
    <td>${w.attempts}</td>
    <td>${w.next_attempt_at ? when(w.next_attempt_at, zone) : '—'}</td>
    <td>${when(w.created_at, zone)}</td>
    <td>
      ${retryHelps(w) ? actionButton(csrf, `/console/deliveries/${w.delivery_id}/retry`, 'Retry now') : ''}
    </td>
  </tr>`;
}

function textRow(t: TextRow, zone: string, csrf: string): Html {
  return html`<tr>
    <td class="phone"><a href="/console/leads/${t.lead_id}">${phone(t.to_phone)}</a></td>
    <td>${t.provider_status ? `sent, then ${t.provider_status}` : textStatus(t.status, t.provider)}</td>
    <td>${t.error ?? '—'}</td>
    <td>${t.attempts}</td>
    <td>${when(t.sent_at ?? t.send_at, zone)}</td>
    <td>
      ${t.status === 'failed' ? actionButton(csrf, `/console/texts/${t.sms_id}/retry`, 'Retry now') : ''}
    </td>
  </tr>`;
}
