import { runCli } from './program.ts';

// No process.exit(): after `serve` the open server keeps the process alive.
process.exitCode = await runCli(process.argv, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
});
