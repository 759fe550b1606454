import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import { reportCsv } from '../economics/report-csv.ts';
import { leadReport, weeklySpeed } from '../economics/report.ts';
import { appError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, signedIn } from './context.ts';
import { queryValue } from './query.ts';
import { reportPage } from './views/report.ts';

/**
 * The period the page shows: whole days `from` to `to` (both included) in the agent's zone;
 * by default the 30 days that end today.
 */
export function reportDays(query: unknown, zone: string, now: DateTime) {
  const day = (key: string) => {
    const text = queryValue(query, key);
    if (!text) return null;
    const value = DateTime.fromISO(text, { zone });
    if (!value.isValid || !/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      throw appError('VALIDATION_ERROR', `${key} must be a day such as 2027-01-15`);
    }
    return value.startOf('day');
  };
  const last = day('to') ?? now.setZone(zone).startOf('day');
  const first = day('from') ?? last.minus({ days: LIMITS.reportDefaultDays - 1 });
  if (last < first) throw appError('VALIDATION_ERROR', 'to must not be before from');
  if (last.diff(first, 'days').days >= LIMITS.reportMaxDays) {
    throw appError('VALIDATION_ERROR', `The report covers at most ${LIMITS.reportMaxDays} days`);
  }
  return {
    fromDay: first.toISODate() ?? '',
    toDay: last.toISODate() ?? '',
    range: { from: first.toUTC().toISO() ?? '', to: last.plus({ days: 1 }).toUTC().toISO() ?? '' },
  };
}

/** The report page (charts drawn on the server as SVG) and its CSV, for the signed-in agent. */
export function registerReportPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get('/report', async (request, reply) => {
    const me = await signedIn(deps, request);
    const { fromDay, toDay, range } = reportDays(request.query, me.agent.timezone, DateTime.now());
    const scope = { agent_id: me.agent.agent_id };
    const [report, weeks] = await Promise.all([
      leadReport(deps.db, scope, range),
      weeklySpeed(deps.db, scope, range, me.agent.timezone),
    ]);
    const body = reportPage({ fromDay, toDay, sources: report.sources, totals: report.totals, weeks });
    return consolePage(reply, me, 'Report', '/console/report', body);
  });

  scope.get('/report.csv', async (request, reply) => {
    const me = await signedIn(deps, request);
    const { fromDay, range } = reportDays(request.query, me.agent.timezone, DateTime.now());
    const report = await leadReport(deps.db, { agent_id: me.agent.agent_id }, range);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="leadgate-report-${fromDay}.csv"`)
      .send(reportCsv(report.sources));
  });
}
