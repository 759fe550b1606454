import type { Command } from 'commander';
import { CliError, type AdminClient } from './api-client.ts';
import { json, keyValues, show, table, type Row } from './output.ts';
import { localTime, renderLead, renderSample } from './render.ts';
import type { CliIo } from './program.ts';

interface JsonOpt {
  json?: boolean;
}

const SOURCE_KEYS = [
  'source_id',
  'agent_id',
  'name',
  'active',
  'has_signing_key',
  'created_at',
  'updated_at',
];

/** Commands that talk to a running server's admin API. */
export function addClientCommands(program: Command, io: CliIo, client: () => AdminClient): void {
  const print = (opts: JsonOpt, data: unknown, readable: () => string) =>
    io.out(`${opts.json ? json(data) : readable()}\n`);
  const id = (value: string) => encodeURIComponent(value);

  const agents = program.command('agents').description('agents who receive leads');
  agents
    .command('create')
    .description('create an agent')
    .requiredOption('--name <name>', 'the agent’s name')
    .option('--timezone <tz>', 'IANA time zone, e.g. America/Chicago (default America/New_York)')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { name: string; timezone?: string }) => {
      const body = { name: opts.name, ...(opts.timezone ? { timezone: opts.timezone } : {}) };
      const agent = await client().request<Row>('POST', '/agents', body);
      print(opts, agent, () => keyValues(agent));
    });
  agents
    .command('show')
    .description('show an agent')
    .argument('<agent_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agentId: string, opts: JsonOpt) => {
      const agent = await client().request<Row>('GET', `/agents/${id(agentId)}`);
      print(opts, agent, () => keyValues(agent));
    });

  const sources = program.command('sources').description('lead sources and their tokens');
  sources
    .command('create')
    .description('create a lead source and print its token (shown only this once)')
    .requiredOption('--agent <agent_id>', 'the receiving agent')
    .requiredOption('--name <name>', 'the source’s name, e.g. the vendor')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string; name: string }) => {
      const source = await client().request<Row>('POST', `/agents/${id(opts.agent)}/sources`, {
        name: opts.name,
      });
      print(opts, source, () =>
        [keyValues(source, [...SOURCE_KEYS, 'token', 'webhook_url']), '', TOKEN_NOTE].join('\n'),
      );
    });
  sources
    .command('list')
    .description('list an agent’s lead sources (never their tokens)')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string }) => {
      const data = await client().request<{ sources: Row[] }>('GET', `/agents/${id(opts.agent)}/sources`);
      print(opts, data, () =>
        data.sources.length === 0
          ? 'No lead sources.'
          : table(
              ['SOURCE_ID', 'ACTIVE', 'SIGNED', 'CREATED_AT', 'NAME'],
              data.sources.map((s) => [
                show(s.source_id),
                show(s.active),
                show(s.has_signing_key),
                show(s.created_at),
                show(s.name),
              ]),
            ),
      );
    });
  sources
    .command('regenerate')
    .description('issue a new token; the old one stops working at once')
    .argument('<source_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, opts: JsonOpt) => {
      const source = await client().request<Row>('POST', `/sources/${id(sourceId)}/regenerate`);
      print(opts, source, () =>
        [keyValues(source, ['source_id', 'name', 'active', 'token', 'webhook_url']), '', TOKEN_NOTE].join(
          '\n',
        ),
      );
    });
  sources
    .command('signing-key')
    .description('require booking-scheduler events to this source to be signed with KEY (--remove: stop)')
    .argument('<source_id>')
    .argument('[key]', 'the scheduler webhook signing key')
    .option('--remove', 'remove the key: events are accepted unsigned again')
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, key: string | undefined, opts: JsonOpt & { remove?: boolean }) => {
      if (!opts.remove && !key) throw new CliError('give the signing key, or --remove');
      const signingKey = opts.remove ? null : (key ?? null);
      const source = await client().request<Row>('PATCH', `/sources/${id(sourceId)}`, {
        signing_key: signingKey,
      });
      print(opts, source, () =>
        [
          `Source ${show(source.source_id)} ${signingKey ? 'requires signed scheduler events' : 'accepts unsigned events'}.`,
          keyValues(source, SOURCE_KEYS),
        ].join('\n'),
      );
    });
  for (const [verb, active] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    sources
      .command(verb)
      .description(
        active ? 'accept deliveries with the source’s token again' : 'refuse deliveries with the token',
      )
      .argument('<source_id>')
      .option('--json', 'print the API response as JSON')
      .action(async (sourceId: string, opts: JsonOpt) => {
        const source = await client().request<Row>('PATCH', `/sources/${id(sourceId)}`, { active });
        print(opts, source, () =>
          [
            `Source ${show(source.source_id)} is ${active ? 'enabled' : 'disabled'}.`,
            keyValues(source, SOURCE_KEYS),
          ].join('\n'),
        );
      });
  }

  const leads = program.command('leads').description('leads an agent received');
  leads
    .command('list')
    .description('list an agent’s leads, newest first')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--status <status>', 'New, Scheduled or Canceled')
    .option('--q <text>', 'search name, email and phone')
    .option('--limit <n>', 'leads per page (default 50, max 200)')
    .option('--cursor <cursor>', 'the next_cursor of the previous page')
    .option('--json', 'print the API response as JSON')
    .action(
      async (
        opts: JsonOpt & { agent: string; status?: string; q?: string; limit?: string; cursor?: string },
      ) => {
        const query = new URLSearchParams();
        for (const key of ['status', 'q', 'limit', 'cursor'] as const) {
          const value = opts[key];
          if (value !== undefined) query.set(key, value);
        }
        const qs = query.size > 0 ? `?${query.toString()}` : '';
        const data = await client().request<{ leads: Row[]; next_cursor: string | null }>(
          'GET',
          `/agents/${id(opts.agent)}/leads${qs}`,
        );
        print(opts, data, () => {
          if (data.leads.length === 0) return 'No leads.';
          const lines = [
            table(
              ['LEAD_ID', 'CREATED_AT', 'STATUS', 'NAME', 'PHONE', 'EMAIL'],
              data.leads.map((l) => [l.lead_id, l.created_at, l.status, l.name, l.phone, l.email].map(show)),
            ),
          ];
          if (data.next_cursor) {
            lines.push('', `More: leadgate leads list --agent ${opts.agent} --cursor ${data.next_cursor}`);
          }
          return lines.join('\n');
        });
      },
    );
  leads
    .command('show')
    .description('show a lead with its appointments and history')
    .argument('<lead_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (leadId: string, opts: JsonOpt) => {
      const lead = await client().request<Row>('GET', `/leads/${id(leadId)}`);
      print(opts, lead, () => renderLead(lead));
    });

  program
    .command('agenda')
    .description('an agent’s appointments in time order')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--from <iso>', 'start instant (default: start of today in the agent’s time zone)')
    .option('--to <iso>', 'end instant, exclusive (default: 30 days after --from)')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string; from?: string; to?: string }) => {
      const query = new URLSearchParams();
      if (opts.from) query.set('from', opts.from);
      if (opts.to) query.set('to', opts.to);
      const qs = query.size > 0 ? `?${query.toString()}` : '';
      const data = await client().request<{ appointments: Row[] }>(
        'GET',
        `/agents/${id(opts.agent)}/agenda${qs}`,
      );
      print(opts, data, () =>
        data.appointments.length === 0
          ? 'No appointments in this period.'
          : table(
              ['WHEN', 'STATUS', 'TYPE', 'NAME', 'LEAD_ID', 'JOIN_URL'],
              data.appointments.map((a) => [
                localTime(a.scheduled_at, a.appointment_timezone),
                show(a.status),
                show(a.schedule_type),
                show(a.name),
                show(a.lead_id),
                show(a.join_url),
              ]),
            ),
      );
    });

  program
    .command('samples')
    .description('Listen-mode samples of a lead source, newest first')
    .requiredOption('--source <source_id>', 'the lead source')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { source: string }) => {
      const data = await client().request<{ samples: Row[] }>('GET', `/sources/${id(opts.source)}/samples`);
      print(opts, data, () =>
        data.samples.length === 0
          ? 'No samples yet (deliveries with "listen": true are kept here).'
          : data.samples.map(renderSample).join('\n\n'),
      );
    });

  program
    .command('events')
    .description('booking-scheduler events of a lead source, newest first (acted on or ignored)')
    .requiredOption('--source <source_id>', 'the lead source')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { source: string }) => {
      const data = await client().request<{ events: Row[] }>('GET', `/sources/${id(opts.source)}/events`);
      print(opts, data, () =>
        data.events.length === 0
          ? 'No scheduler events yet.'
          : data.events
              .map((e) => [e.received_at, e.event, e.outcome, e.lead_id ?? '-'].map(String).join('  '))
              .join('\n'),
      );
    });
}

const TOKEN_NOTE = 'Keep the token now: it is stored only as a hash and is not shown again.';
