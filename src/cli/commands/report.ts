import type { Command } from 'commander';
import { CliError } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { queryString, segment } from '../io.ts';
import { dollars } from '../../money.ts';
import { show, table } from '../output.ts';

interface ReportRow {
  name: string | null;
  deliveries: number;
  billable: number;
  returned: number;
  spend_cents: number;
  appointments: number;
  sales: number;
  premium_cents: number;
  cost_per_lead_cents: number | null;
  cost_per_sale_cents: number | null;
  return_rate: number | null;
  first_text_minutes_p50: number | null;
  first_call_minutes_p50: number | null;
}

interface Report {
  from: string;
  to: string;
  sources: ReportRow[];
  totals: ReportRow;
}

interface ReportOpts extends JsonOpt {
  agent?: string;
  agency?: string;
  from?: string;
  to?: string;
  csv?: boolean;
}

/** `leadgate report`: what each source's leads cost and earned in a period (docs/economics.md). */
export function addReportCommand(program: Command, ctx: CommandContext): void {
  program
    .command('report')
    .description('what each lead source cost and earned in a period: spend, returns, sales, speed to lead')
    .option('--agent <agent_id>', 'the agent')
    .option('--agency <agency_id>', 'an agency instead: its sources, whichever producer has the lead')
    .option('--from <iso>', 'start instant (default: 30 days before --to)')
    .option('--to <iso>', 'end instant, exclusive (default: now)')
    .option('--csv', 'print CSV: a header line and one line per source')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: ReportOpts) => {
      if (!opts.agent === !opts.agency) throw new CliError('give --agent or --agency, one of them');
      const path = opts.agent ? `/agents/${segment(opts.agent)}` : `/agencies/${segment(opts.agency ?? '')}`;
      const qs = queryString({
        from: opts.from || undefined,
        to: opts.to || undefined,
        format: opts.csv ? 'csv' : undefined,
      });
      if (opts.csv) {
        const csv = await ctx.client().request<string>('GET', `${path}/report${qs}`);
        ctx.print({}, csv, () => csv.replace(/\r\n$/, ''));
        return;
      }
      const data = await ctx.client().request<Report>('GET', `${path}/report${qs}`);
      ctx.print(opts, data, () => renderReport(data));
    });
}

const money = (cents: number | null) => (cents === null ? '-' : dollars(cents));
const percent = (rate: number | null) => (rate === null ? '-' : `${(rate * 100).toFixed(1)}%`);
const minutes = (value: number | null) => (value === null ? '-' : `${value} min`);

function renderReport(r: Report): string {
  if (r.sources.length === 0) return `No deliveries from ${r.from} to ${r.to}.`;
  const line = (row: ReportRow, name: string) => [
    name,
    ...[row.deliveries, row.billable, row.returned].map(show),
    money(row.spend_cents),
    show(row.appointments),
    show(row.sales),
    money(row.premium_cents),
    money(row.cost_per_lead_cents),
    money(row.cost_per_sale_cents),
    percent(row.return_rate),
    minutes(row.first_text_minutes_p50),
    minutes(row.first_call_minutes_p50),
  ];
  return [
    `From ${r.from} to ${r.to}`,
    table(
      [
        'SOURCE',
        'DELIVERED',
        'BILLABLE',
        'RETURNED',
        'SPEND',
        'APPTS',
        'SALES',
        'PREMIUM',
        'PER_LEAD',
        'PER_SALE',
        'RETURNS',
        'TEXT_P50',
        'CALL_P50',
      ],
      [...r.sources.map((row) => line(row, show(row.name))), line(r.totals, 'TOTAL')],
    ),
  ].join('\n');
}
