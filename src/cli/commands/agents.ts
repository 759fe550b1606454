import type { Command } from 'commander';
import type { AdminAnswer } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { keyValues, show, table } from '../output.ts';

export function addAgentCommands(program: Command, ctx: CommandContext): void {
  const agents = program.command('agents').description('agents who receive leads');
  createAgent(agents, ctx);
  listAgents(agents, ctx);
  showAgent(agents, ctx);
  setPassword(agents, ctx);
  agentKeys(agents, ctx);
}

function createAgent(agents: Command, ctx: CommandContext): void {
  agents
    .command('create')
    .description('create an agent')
    .requiredOption('--name <name>', 'the agent’s name')
    .option('--timezone <tz>', 'IANA time zone, e.g. America/Chicago (default America/New_York)')
    .option('--email <email>', 'the agent’s console login')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { name: string; timezone?: string; email?: string }) => {
      const agent = await ctx.client().request('POST', '/agents', {
        // An option not given is undefined, which JSON leaves out.
        body: { name: opts.name, timezone: opts.timezone || undefined, email: opts.email || undefined },
      });
      ctx.print(opts, agent, () => keyValues(agent));
    });
}

/** Every page of the list: agents are few, and the ids are what the reader came for. */
function listAgents(agents: Command, ctx: CommandContext): void {
  agents
    .command('list')
    .description('the agents and their ids (with an agent key: that agent alone)')
    .option('--json', 'print the agents as JSON')
    .action(async (opts: JsonOpt) => {
      const all: AdminAnswer<'GET', '/agents'>['agents'] = [];
      let cursor: string | null = null;
      do {
        const page: AdminAnswer<'GET', '/agents'> = await ctx
          .client()
          .request('GET', '/agents', { query: { cursor: cursor ?? undefined } });
        all.push(...page.agents);
        cursor = page.next_cursor;
      } while (cursor);
      ctx.print(opts, { agents: all }, () =>
        all.length === 0
          ? 'No agents yet: npx leadgate agents create --name "…"'
          : table(
              ['AGENT_ID', 'NAME', 'EMAIL', 'TIMEZONE'],
              all.map((a) => [a.agent_id, a.name, a.email, a.timezone].map(show)),
            ),
      );
    });
}

function showAgent(agents: Command, ctx: CommandContext): void {
  agents
    .command('show')
    .description('show an agent')
    .argument('<agent_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agentId: string, opts: JsonOpt) => {
      const agent = await ctx.client().request('GET', '/agents/{agent_id}', { path: { agent_id: agentId } });
      ctx.print(opts, agent, () => keyValues(agent));
    });
}

function setPassword(agents: Command, ctx: CommandContext): void {
  agents
    .command('password')
    .description('set the agent’s console password, read from standard input (at least 12 characters)')
    .argument('<agent_id>')
    .action(async (agentId: string) => {
      // One trailing line break (echo, a heredoc) is not part of the password.
      const password = (await ctx.readStdin()).replace(/\r?\n$/, '');
      await ctx
        .client()
        .request('PUT', '/agents/{agent_id}/password', { path: { agent_id: agentId }, body: { password } });
      ctx.print({}, null, () => 'Password set; the agent’s console sessions were ended.');
    });
}

function agentKeys(agents: Command, ctx: CommandContext): void {
  const keys = agents.command('keys').description('the agent’s own API keys');
  keys
    .command('create')
    .description('issue an API key that sees this agent only (shown once)')
    .argument('<agent_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agentId: string, opts: JsonOpt) => {
      const key = await ctx
        .client()
        .request('POST', '/agents/{agent_id}/keys', { path: { agent_id: agentId } });
      ctx.print(opts, key, () => `${keyValues(key)}\nKeep the key now: it is not shown again.`);
    });
  keys
    .command('revoke')
    .description('revoke an API key at once')
    .argument('<agent_id>')
    .argument('<key_id>')
    .action(async (agentId: string, keyId: string) => {
      await ctx.client().request('DELETE', '/agents/{agent_id}/keys/{key_id}', {
        path: { agent_id: agentId, key_id: keyId },
      });
      ctx.print({}, null, () => 'Key revoked.');
    });
}
