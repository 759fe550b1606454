import type { WeekSpeed } from '../../economics/report.ts';
import type { ReportRow } from '../../economics/report-row.ts';
import { wholeDollars } from '../../money.ts';
import { html, type Html } from '../html.ts';

/**
 * The report's charts, drawn here as SVG (no script, no CDN, nothing the CSP must allow): each a
 * `role="img"` with its title, and the same figures in the table beside it for a screen reader.
 */

const WIDTH = 640;
const LABEL = 150;
const BAR = 12;
const SPEND = '#c2410c';
const PREMIUM = '#15803d';
const TEXT = '#1d4ed8';
const CALL = '#7c3aed';

/** Spend against premium per source: two bars a source, on one scale. */
export function spendPremiumChart(rows: readonly ReportRow[]): Html {
  const top = Math.max(1, ...rows.flatMap((r) => [r.spend_cents, r.premium_cents]));
  const plot = WIDTH - LABEL - 90;
  const scale = (cents: number) => Math.max(0, (cents / top) * plot);
  const rowHeight = BAR * 2 + 14;
  // One bar from the labels' edge, with its amount just past its end.
  const bar = (y: number, cents: number, fill: string) =>
    html`<rect x="${LABEL}" y="${y}" width="${scale(cents).toFixed(1)}" height="${BAR}" fill="${fill}" />
      <text x="${(LABEL + scale(cents) + 4).toFixed(1)}" y="${y + BAR - 2}" font-size="11">
        ${wholeDollars(cents)}
      </text>`;
  const height = 28 + rows.length * rowHeight;
  return html`<svg
    class="chart"
    role="img"
    aria-labelledby="spend-chart-t"
    viewBox="0 0 ${WIDTH} ${height}"
    width="${WIDTH}"
    height="${height}"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title id="spend-chart-t">Spend against premium per source</title>
    ${legend([
      [SPEND, 'Spend'],
      [PREMIUM, 'Premium'],
    ])}
    ${rows.map((r, i) => {
      const y = 28 + i * rowHeight;
      return html`<g>
        <text x="0" y="${y + BAR + 4}" font-size="12">${truncate(r.name ?? '', 22)}</text>
        ${bar(y, r.spend_cents, SPEND)} ${bar(y + BAR + 2, r.premium_cents, PREMIUM)}
      </g>`;
    })}
  </svg>`;
}

/** Median minutes to the first text and the first call, week by week: two lines over the weeks. */
export function speedChart(weeks: readonly WeekSpeed[]): Html {
  const height = 200;
  const left = 44;
  const bottom = height - 28;
  const values = weeks.flatMap((w) => [w.first_text_minutes_p50 ?? 0, w.first_call_minutes_p50 ?? 0]);
  const top = Math.max(1, ...values);
  const step = weeks.length > 1 ? (WIDTH - left - 20) / (weeks.length - 1) : 0;
  const x = (i: number) => left + (weeks.length > 1 ? i * step : (WIDTH - left) / 2);
  const y = (minutes: number) => bottom - (minutes / top) * (bottom - 30);
  const line = (pick: (w: WeekSpeed) => number | null, color: string) => {
    const points = weeks.flatMap((w, i) => {
      const m = pick(w);
      return m === null ? [] : [[x(i), y(m)] as const];
    });
    return html`${
      points.length > 1
        ? html`<polyline
            fill="none"
            stroke="${color}"
            stroke-width="2"
            points="${points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}"
          />`
        : ''
    }
    ${points.map(([px, py]) => html`<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3" fill="${color}" />`)}`;
  };
  return html`<svg
    class="chart"
    role="img"
    aria-labelledby="speed-chart-t"
    viewBox="0 0 ${WIDTH} ${height}"
    width="${WIDTH}"
    height="${height}"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title id="speed-chart-t">
      Speed to lead per week: median minutes to the first text and the first call
    </title>
    ${legend([
      [TEXT, 'First text'],
      [CALL, 'First call'],
    ])}
    <line x1="${left}" y1="${bottom}" x2="${WIDTH - 10}" y2="${bottom}" stroke="#999" />
    <text x="0" y="${y(top) + 4}" font-size="11">${formatMinutes(top)}</text>
    <text x="0" y="${bottom + 4}" font-size="11">0</text>
    ${weeks.map((w, i) => html`<text x="${(x(i) - 18).toFixed(1)}" y="${height - 8}" font-size="11">${w.week.slice(5)}</text>`)}
    ${line((w) => w.first_text_minutes_p50, TEXT)} ${line((w) => w.first_call_minutes_p50, CALL)}
  </svg>`;
}

function legend(items: ReadonlyArray<readonly [color: string, label: string]>): Html {
  return html`${items.map(
    ([color, label], i) =>
      html`<rect x="${LABEL + i * 110}" y="4" width="12" height="12" fill="${color}" />
        <text x="${LABEL + i * 110 + 16}" y="14" font-size="12">${label}</text>`,
  )}`;
}

const formatMinutes = (m: number) => `${Math.round(m)} min`;
const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
