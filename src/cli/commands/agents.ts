import type { Command } from 'commander';
import type { CommandContext, JsonOpt } from '../io.ts';
import { segment } from '../io.ts';
import { keyValues, type Row } from '../output.ts';

export function addAgentCommands(program: Command, ctx: CommandContext): void {
  const agents = program.command('agents').description('agents who receive leads');
  createAgent(agents, ctx);
  showAgent(agents, ctx);
}

function createAgent(agents: Command, ctx: CommandContext): void {
  agents
    .command('create')
    .description('create an agent')
    .requiredOption('--name <name>', 'the agent’s name')
    .option('--timezone <tz>', 'IANA time zone, e.g. America/Chicago (default America/New_York)')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { name: string; timezone?: string }) => {
      const body = { name: opts.name, ...(opts.timezone ? { timezone: opts.timezone } : {}) };
      const agent = await ctx.client().request<Row>('POST', '/agents', body);
      ctx.print(opts, agent, () => keyValues(agent));
    });
}

function showAgent(agents: Command, ctx: CommandContext): void {
  agents
    .command('show')
    .description('show an agent')
    .argument('<agent_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agentId: string, opts: JsonOpt) => {
      const agent = await ctx.client().request<Row>('GET', `/agents/${segment(agentId)}`);
      ctx.print(opts, agent, () => keyValues(agent));
    });
}
