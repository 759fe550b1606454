import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { CliError } from './api-client.ts';
import { json } from './output.ts';
import type { CliIo } from './io.ts';

/** `serve` and `migrate`: the only commands that open the database themselves. */
export function addServerCommands(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('start the gateway and admin API (what npm start runs)')
    .option('--json', 'accepted for symmetry; the server logs JSON lines')
    .action(async () => {
      const config = configFrom(io.env);
      // Imported here so client commands do not load the server, its database drivers and Fastify.
      const { startServer } = await import('../server.ts');
      await startServer(config);
    });

  program
    .command('worker')
    .description(
      'run the dispatcher alone: webhooks, texts (beside servers started with LEADGATE_DISPATCHER=0)',
    )
    .action(async () => {
      const config = configFrom(io.env);
      const { startWorker } = await import('../server.ts');
      await startWorker(config);
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print {"applied": [...]}')
    .action(async (opts: { json?: boolean }) => {
      const config = configFrom(io.env);
      const { runMigrations } = await import('../server.ts');
      const applied = await runMigrations(config);
      if (opts.json) io.out(`${json({ applied })}\n`);
      else if (applied.length === 0) io.out('Database is up to date.\n');
      else io.out(`Applied: ${applied.join(', ')}\n`);
    });
}

function configFrom(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration: ${err.message}`);
    throw err;
  }
}
