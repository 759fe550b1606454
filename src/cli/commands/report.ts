import type { Command } from 'commander';
import { CliError, type AdminAnswer } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { dollars } from '../../money.ts';
import { show, table } from '../output.ts';

type Report = AdminAnswer<'GET', '/agents/{agent_id}/report'>;
type ReportRow = Report['totals'];

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
      const client = ctx.client();
      const query = { from: opts.from || undefined, to: opts.to || undefined };
      if (opts.csv) {
        const csvQuery = { ...query, format: 'csv' as const };
        const csv = opts.agent
          ? await client.text('/agents/{agent_id}/report', {
              path: { agent_id: opts.agent },
              query: csvQuery,
            })
          : await client.text('/agencies/{agency_id}/report', {
              path: { agency_id: opts.agency ?? '' },
              query: csvQuery,
            });
        ctx.print({}, csv, () => csv.replace(/\r\n$/, ''));
        return;
      }
      const data: Report = opts.agent
        ? await client.request('GET', '/agents/{agent_id}/report', { path: { agent_id: opts.agent }, query })
        : await client.request('GET', '/agencies/{agency_id}/report', {
            path: { agency_id: opts.agency ?? '' },
            query,
          });
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
