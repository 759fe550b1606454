import type { Command } from 'commander';
import type { CommandContext, JsonOpt } from '../io.ts';
import type { AdminBody, AdminQuery } from '../api-client.ts';
import { keyValues, show, table } from '../output.ts';

// Choices the server checks, as typed: its refusal names the values it takes.
type DestinationKind = AdminBody<'POST', '/sources/{source_id}/destinations'>['kind'];
type DestinationEvents = AdminBody<'POST', '/sources/{source_id}/destinations'>['events'];
type DeliveryStatus = AdminQuery<'GET', '/agents/{agent_id}/deliveries'>['status'];
import { CliError } from '../api-client.ts';

/** Outbound destinations, webhook deliveries, the dial queue and an agent's text template. */
export function addAutomationCommands(program: Command, ctx: CommandContext): void {
  const destinations = program
    .command('destinations')
    .description('where a source’s events are sent (partner sync, analytics)');
  addDestination(destinations, ctx);
  listDestinations(destinations, ctx);
  removeDestination(destinations, ctx);
  const deliveries = program.command('deliveries').description('webhook deliveries to destinations');
  listDeliveries(deliveries, ctx);
  retryDelivery(deliveries, ctx);
  dialQueue(program, ctx);
  smsTemplate(program, ctx);
}

function addDestination(destinations: Command, ctx: CommandContext): void {
  destinations
    .command('add')
    .description('send a source’s events to URL, signed; prints the signing secret once')
    .requiredOption('--source <source_id>', 'the lead source')
    .requiredOption('--url <url>', 'the receiver’s https URL')
    .option('--kind <kind>', 'partner_sync or analytics', 'partner_sync')
    .option('--events <topics>', 'comma-separated topics (default: all)')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { source: string; url: string; kind: string; events?: string }) => {
      const body: AdminBody<'POST', '/sources/{source_id}/destinations'> = {
        kind: opts.kind as DestinationKind,
        url: opts.url,
        events: opts.events ? (opts.events.split(',').map((e) => e.trim()) as DestinationEvents) : undefined,
      };
      const destination = await ctx
        .client()
        .request('POST', '/sources/{source_id}/destinations', { path: { source_id: opts.source }, body });
      ctx.print(opts, destination, () =>
        [
          keyValues(destination),
          '',
          'Keep the secret now: receivers verify signatures with it; it is not shown again.',
        ].join('\n'),
      );
    });
}

function listDestinations(destinations: Command, ctx: CommandContext): void {
  destinations
    .command('list')
    .description('a source’s destinations')
    .requiredOption('--source <source_id>', 'the lead source')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { source: string }) => {
      const data = await ctx
        .client()
        .request('GET', '/sources/{source_id}/destinations', { path: { source_id: opts.source } });
      ctx.print(opts, data, () =>
        data.destinations.length === 0
          ? 'No destinations.'
          : table(
              ['DESTINATION_ID', 'KIND', 'ACTIVE', 'EVENTS', 'URL'],
              data.destinations.map((d) =>
                [
                  d.destination_id,
                  d.kind,
                  d.active ? 'yes' : `no (${show(d.disabled_reason)})`,
                  d.events ?? 'all',
                  d.url,
                ].map(show),
              ),
            ),
      );
    });
}

function removeDestination(destinations: Command, ctx: CommandContext): void {
  destinations
    .command('remove')
    .description('stop sending to a destination; its pending deliveries are canceled')
    .argument('<destination_id>')
    .option('--json', 'print {"removed": true}')
    .action(async (destinationId: string, opts: JsonOpt) => {
      await ctx
        .client()
        .request('DELETE', '/destinations/{destination_id}', { path: { destination_id: destinationId } });
      ctx.print(opts, { removed: true }, () => `Destination ${destinationId} removed.`);
    });
}

function listDeliveries(deliveries: Command, ctx: CommandContext): void {
  deliveries
    .command('list')
    .description('an agent’s webhook deliveries, newest first')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--status <status>', 'pending, sending, delivered, dead or canceled')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string; status?: string }) => {
      const data = await ctx.client().request('GET', '/agents/{agent_id}/deliveries', {
        path: { agent_id: opts.agent },
        query: { status: opts.status as DeliveryStatus },
      });
      ctx.print(opts, data, () =>
        data.deliveries.length === 0
          ? 'No deliveries.'
          : table(
              ['DELIVERY_ID', 'TOPIC', 'DESTINATION', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT_ATTEMPT_AT'],
              data.deliveries.map((d) =>
                [
                  d.delivery_id,
                  d.topic,
                  d.destination_url ?? '(removed)',
                  d.status,
                  d.attempts,
                  d.last_status ?? d.last_error,
                  d.next_attempt_at,
                ].map(show),
              ),
            ),
      );
    });
}

function retryDelivery(deliveries: Command, ctx: CommandContext): void {
  deliveries
    .command('retry')
    .description('send a delivery again now, with a fresh retry schedule')
    .argument('<delivery_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (deliveryId: string, opts: JsonOpt) => {
      const delivery = await ctx
        .client()
        .request('POST', '/deliveries/{delivery_id}/retry', { path: { delivery_id: deliveryId } });
      ctx.print(opts, delivery, () => keyValues(delivery));
    });
}

function dialQueue(program: Command, ctx: CommandContext): void {
  program
    .command('dial-queue')
    .description('an agent’s open call tasks, oldest first, with each prospect’s local time')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string }) => {
      const data = await ctx
        .client()
        .request('GET', '/agents/{agent_id}/dial-queue', { path: { agent_id: opts.agent } });
      ctx.print(opts, data, () =>
        data.tasks.length === 0
          ? 'No calls waiting.'
          : table(
              ['CREATED_AT', 'LOCAL_TIME', 'NAME', 'PHONE', 'LEAD_ID'],
              data.tasks.map((task) =>
                [
                  task.created_at,
                  `${show(task.local_time)} ${show(task.timezone)}`,
                  task.name,
                  task.phone,
                  task.lead_id,
                ].map(show),
              ),
            ),
      );
    });
}

function smsTemplate(program: Command, ctx: CommandContext): void {
  program
    .command('sms-template')
    .description(
      'set the first text new leads get ({agent_name}, {first_name}, {appointment_time}); --reset: the default',
    )
    .requiredOption('--agent <agent_id>', 'the agent')
    .argument('[template]')
    .option('--reset', 'go back to the default text')
    .option('--json', 'print the API response as JSON')
    .action(async (template: string | undefined, opts: JsonOpt & { agent: string; reset?: boolean }) => {
      if (!opts.reset && !template) throw new CliError('give the template, or --reset');
      const agent = await ctx.client().request('PATCH', '/agents/{agent_id}', {
        path: { agent_id: opts.agent },
        body: {
          sms_template: opts.reset ? null : template,
        },
      });
      ctx.print(opts, agent, () => keyValues(agent));
    });
}
