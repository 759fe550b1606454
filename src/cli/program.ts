import { Command, CommanderError } from 'commander';
import { createAdminClient, CliError, type AdminClient } from './api-client.ts';
import { addClientCommands } from './client-commands.ts';
import { addServerCommands } from './server-commands.ts';

/** Where the CLI writes and what environment it reads: the process, or a test's capture. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** The `leadgate` command tree. Errors propagate; `runCli` turns them into output and an exit code. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('leadgate')
    .description('Leadgate: inbound lead gateway for insurance-agent CRMs')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError('(run with --help for usage)');
  let client: AdminClient | undefined;
  addServerCommands(program, io);
  addClientCommands(program, io, () => (client ??= createAdminClient(io.env)));
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
