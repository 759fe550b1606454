import { Command, CommanderError } from 'commander';
import { createAdminClient, CliError, type AdminClient } from './api-client.ts';
import { addAgencyCommands } from './commands/agencies.ts';
import { addAgentCommands } from './commands/agents.ts';
import { addAutomationCommands } from './commands/automations.ts';
import { addConversationCommands } from './commands/conversations.ts';
import { addLeadCommands } from './commands/leads.ts';
import { addReportCommand } from './commands/report.ts';
import { addSendCommand } from './commands/send.ts';
import { addSourceCommands } from './commands/sources.ts';
import { addSuppressionCommands } from './commands/suppressions.ts';
import { addViewCommands } from './commands/views.ts';
import { commandContext, type CliIo } from './io.ts';
import { addServerCommands } from './server-commands.ts';

/** The `leadgate` command tree. Errors propagate; `runCli` turns them into output and an exit code. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('leadgate')
    .description('Leadgate: inbound lead gateway for insurance-agent CRMs')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError('(run with --help for usage)');
  let client: AdminClient | undefined;
  addServerCommands(program, io);
  // Every other command is a client of a running server's admin API.
  const ctx = commandContext(io, () => (client ??= createAdminClient(io.env)));
  addAgentCommands(program, ctx);
  addSourceCommands(program, ctx);
  addAgencyCommands(program, ctx);
  addLeadCommands(program, ctx);
  addConversationCommands(program, ctx);
  addViewCommands(program, ctx);
  addAutomationCommands(program, ctx);
  addReportCommand(program, ctx);
  addSendCommand(program, ctx, io);
  addSuppressionCommands(program, ctx, io);
  return program;
}

/** Runs one command line (`argv` as in process.argv) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv]);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode; // commander already printed it
    if (err instanceof CliError) io.err(`${err.message}\n`);
    else io.err(`leadgate: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
