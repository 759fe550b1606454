// Entry for tests that need a real gateway process: `tsx test/support/serve-process.ts`.
// Same start-up path as `leadgate serve`, configured by the environment.
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';

const server = await startServer(loadConfig());
process.stdout.write(`LISTENING ${server.url}\n`);
