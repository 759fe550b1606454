import { runCli } from './program.ts';

// No process.exit(): after `serve` the open server keeps the process alive.
process.exitCode = await runCli(process.argv, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  isTTY: process.stderr.isTTY === true,
  stdin: async () => {
    if (process.stdin.isTTY) process.stderr.write('Password (input is shown; end with Ctrl-D): ');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
});
