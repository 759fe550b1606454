import type { WeekSpeed } from '../../economics/report.ts';
import type { ReportRow } from '../../economics/report-row.ts';
import { dollars } from '../../money.ts';
import { html, type Html } from '../html.ts';
import { dataTable } from './components.ts';
import { spendPremiumChart, speedChart } from './report-charts.ts';

export interface ReportPageData {
  /** The period's first and last day, in the agent's zone (YYYY-MM-DD). */
  fromDay: string;
  toDay: string;
  sources: ReportRow[];
  totals: ReportRow;
  weeks: WeekSpeed[];
}

const money = (cents: number | null) => (cents === null ? '—' : dollars(cents));
const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);
const minutes = (m: number | null) => (m === null ? '—' : `${m} min`);

function row(r: ReportRow, name: Html | string): Html {
  return html`<tr>
    <td>${name}</td>
    <td class="num">${r.deliveries}</td>
    <td class="num">${r.billable}</td>
    <td class="num">${r.returned} / ${r.credited}</td>
    <td class="num">${money(r.spend_cents)}</td>
    <td class="num">${r.contacted}</td>
    <td class="num">${r.appointments}</td>
    <td class="num">${r.sales}</td>
    <td class="num">${money(r.premium_cents)}</td>
    <td class="num">${money(r.cost_per_lead_cents)}</td>
    <td class="num">${money(r.cost_per_appointment_cents)}</td>
    <td class="num">${money(r.cost_per_sale_cents)}</td>
    <td class="num">${percent(r.return_rate)}</td>
    <td class="num">${minutes(r.first_text_minutes_p50)} · ${minutes(r.first_text_minutes_p90)}</td>
    <td class="num">${minutes(r.first_call_minutes_p50)} · ${minutes(r.first_call_minutes_p90)}</td>
  </tr>`;
}

/** The report: the period, the two charts, and every figure per source with the totals. */
export function reportPage(d: ReportPageData): Html {
  const query = `from=${d.fromDay}&to=${d.toDay}`;
  return html`<main>
    <h1>Report</h1>
    <form method="get" action="/console/report" class="inline" aria-label="Period">
      <label>From <input type="date" name="from" value="${d.fromDay}" required /></label>
      <label>To <input type="date" name="to" value="${d.toDay}" required /></label>
      <button type="submit">Show</button>
      <a href="/console/report.csv?${query}" download>Download CSV</a>
    </form>
    <p class="muted">
      Leads delivered from ${d.fromDay} to ${d.toDay}, whatever became of them since. Spend is the billable
      deliveries less credited returns.
    </p>
    ${
      d.sources.length === 0
        ? html`<p class="empty">No deliveries in this period.</p>`
        : html`<div class="charts">
              <figure>
                ${spendPremiumChart(d.sources)}
                <figcaption>Spend against premium, per source</figcaption>
              </figure>
              <figure>
                ${speedChart(d.weeks)}
                <figcaption>Speed to lead per week (median minutes)</figcaption>
              </figure>
            </div>
            ${dataTable(
              [
                'Source',
                'Delivered',
                'Billable',
                'Returned / credited',
                'Spend',
                'Contacted',
                'Appts',
                'Sales',
                'Premium',
                'Per lead',
                'Per appt',
                'Per sale',
                'Return rate',
                'First text p50 · p90',
                'First call p50 · p90',
              ],
              [...d.sources.map((r) => row(r, r.name ?? '')), row(d.totals, html`<strong>Total</strong>`)],
              { caption: 'What each source cost and earned' },
            )}`
    }
  </main>`;
}
