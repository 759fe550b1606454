// Entry for tests that need a real `leadgate worker`: `tsx test/support/worker-process.ts`.
// Same start-up path as the CLI's `worker` command, configured by the environment.
import { loadConfig } from '../../src/config.ts';
import { startWorker } from '../../src/server.ts';

await startWorker(loadConfig());
process.stdout.write('WORKER STARTED\n');
