import type { Command } from 'commander';
import { CliError } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { show, table } from '../output.ts';
import { localTime, renderRemap, renderSample } from '../render.ts';

/** The agent's agenda and a source's samples (Listen-mode and refused deliveries) and scheduler events. */
export function addViewCommands(program: Command, ctx: CommandContext): void {
  agenda(program, ctx);
  samples(program, ctx);
  events(program, ctx);
}

function agenda(program: Command, ctx: CommandContext): void {
  program
    .command('agenda')
    .description('an agent’s appointments in time order')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--from <iso>', 'start instant (default: start of today in the agent’s time zone)')
    .option('--to <iso>', 'end instant, exclusive (default: 30 days after --from)')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string; from?: string; to?: string }) => {
      const data = await ctx.client().request('GET', '/agents/{agent_id}/agenda', {
        path: { agent_id: opts.agent },
        query: { from: opts.from || undefined, to: opts.to || undefined },
      });
      ctx.print(opts, data, () =>
        data.appointments.length === 0
          ? 'No appointments in this period.'
          : table(
              ['WHEN', 'STATUS', 'TYPE', 'NAME', 'LEAD_ID', 'JOIN_URL'],
              data.appointments.map((a) => [
                localTime(a.scheduled_at, a.appointment_timezone),
                ...[a.status, a.schedule_type, a.name, a.lead_id, a.join_url].map(show),
              ]),
            ),
      );
    });
}

interface SamplesOpts extends JsonOpt {
  source: string;
  refused?: boolean;
  listen?: boolean;
  remap?: string;
}

function samples(program: Command, ctx: CommandContext): void {
  program
    .command('samples')
    .description('a source’s samples: Listen-mode deliveries and refused live ones, newest first')
    .requiredOption('--source <source_id>', 'the lead source')
    .option('--refused', 'only live deliveries the gateway refused (400)')
    .option('--listen', 'only Listen-mode deliveries')
    .option(
      '--remap <sample_id>',
      'map a stored sample again with the source’s current rules (stores nothing)',
    )
    .option('--json', 'print the API response as JSON')
    .action(async (opts: SamplesOpts) => {
      if (opts.remap) return remapSample(ctx, opts.source, opts.remap, opts);
      if (opts.refused && opts.listen) throw new CliError('give --refused or --listen, not both');
      const data = await ctx.client().request('GET', '/sources/{source_id}/samples', {
        path: { source_id: opts.source },
        query: { listen: opts.refused ? 'false' : opts.listen ? 'true' : undefined },
      });
      ctx.print(opts, data, () =>
        data.samples.length === 0
          ? 'No samples yet (deliveries with "listen": true, and refused ones, are kept here).'
          : data.samples.map(renderSample).join('\n\n'),
      );
    });
}

async function remapSample(ctx: CommandContext, sourceId: string, sampleId: string, opts: JsonOpt) {
  const remapped = await ctx.client().request('POST', '/sources/{source_id}/samples/{sample_id}/remap', {
    path: { source_id: sourceId, sample_id: sampleId },
  });
  ctx.print(opts, remapped, () => renderRemap(remapped));
}

function events(program: Command, ctx: CommandContext): void {
  program
    .command('events')
    .description('booking-scheduler events of a lead source, newest first (acted on or ignored)')
    .requiredOption('--source <source_id>', 'the lead source')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { source: string }) => {
      const data = await ctx
        .client()
        .request('GET', '/sources/{source_id}/events', { path: { source_id: opts.source } });
      ctx.print(opts, data, () =>
        data.events.length === 0
          ? 'No scheduler events yet.'
          : data.events
              .map((e) => [e.received_at, e.event, e.outcome, e.lead_id ?? '-'].map(String).join('  '))
              .join('\n'),
      );
    });
}
