import type { AdminClient } from './api-client.ts';
import { json } from './output.ts';

/** Where the CLI writes and what environment it reads: the process, or a test's capture. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Standard input, read whole (a password); absent: nothing. */
  stdin?: () => Promise<string>;
  /** Whether stderr is a terminal: progress is shown there, and not when piped. */
  isTTY?: boolean;
}

export interface JsonOpt {
  json?: boolean;
}

/** What every client command gets: output, and the admin API client (created on first use). */
export interface CommandContext {
  client(): AdminClient;
  /** Prints the API's answer as JSON with `--json`, else the readable rendering. */
  print(opts: JsonOpt, data: unknown, readable: () => string): void;
  /** Standard input, read whole; '' when there is none. */
  readStdin(): Promise<string>;
}

export function commandContext(io: CliIo, client: () => AdminClient): CommandContext {
  return {
    client,
    print: (opts, data, readable) => io.out(`${opts.json ? json(data) : readable()}\n`),
    readStdin: async () => (io.stdin ? io.stdin() : ''),
  };
}

/** A path segment as typed by the user, safe in a URL. */
export const segment = (value: string) => encodeURIComponent(value);
