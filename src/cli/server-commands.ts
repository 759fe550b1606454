import { availableParallelism } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { relaunchWith, serverNodeFlags } from './node-flags.ts';
import { CliError } from './api-client.ts';
import { json } from './output.ts';
import type { CliIo } from './io.ts';

/** `serve` and `migrate`: the only commands that open the database themselves. */
export function addServerCommands(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('start the gateway and admin API (what npm start runs)')
    .option('--json', 'accepted for symmetry; the server logs JSON lines')
    .option(
      '--workers <n>',
      'run N gateway processes on one port (PostgreSQL only); "auto": one per core',
      parseWorkers,
    )
    .action(async (opts: { workers?: number }) => {
      const config = configFrom(io.env);
      await relaunchWith(serverNodeFlags(config));
      if (opts.workers !== undefined) {
        const { serveWithWorkers, WorkersError } = await import('../cluster.ts');
        try {
          return await serveWithWorkers(config, opts.workers);
        } catch (err) {
          if (err instanceof WorkersError) throw new CliError(err.message);
          throw err;
        }
      }
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
      await relaunchWith(serverNodeFlags(config));
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

function parseWorkers(value: string): number {
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    throw new InvalidArgumentError('a whole number from 1 to 64, or "auto"');
  }
  return n;
}

function configFrom(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration: ${err.message}`);
    throw err;
  }
}
