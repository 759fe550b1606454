import { createReadStream } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { LIMITS } from '../../limits.ts';
import { normalizeEmail } from '../../ingest/normalize/email.ts';
import { normalizePhone } from '../../ingest/normalize/phone.ts';
import { CliError, type AdminBody } from '../api-client.ts';
import type { CliIo, CommandContext, JsonOpt } from '../io.ts';
import { segment } from '../io.ts';
import { keyValues } from '../output.ts';
import { wholeNumber } from '../options.ts';

type List = AdminBody<'POST', '/agents/{agent_id}/suppressions'>['list'];

const LISTS: readonly string[] = ['dnc', 'litigator', 'customer', 'registry'] satisfies List[];

interface ImportOpts extends JsonOpt {
  list: string;
  agent?: string;
  agency?: string;
  batch: number;
  restart?: boolean;
}

/** Where an import stopped: the byte after the last line the server took, and the counts so far. */
interface Checkpoint {
  owner: string;
  list: string;
  offset: number;
  lines: number;
  added: number;
  skipped: number;
}

/** Suppression lists (docs/compliance.md): importing a file of phones or emails into one. */
export function addSuppressionCommands(program: Command, ctx: CommandContext, io: CliIo): void {
  const suppressions = program
    .command('suppressions')
    .description('do-not-contact lists: dnc, litigator, customer, registry (docs/compliance.md)');
  suppressions
    .command('import')
    .description('add the phones or emails of FILE (CSV, or one a line) to a list; resumable, idempotent')
    .argument('<file>', 'the file: on each line, the first column that reads as a phone or an email')
    .requiredOption('--list <list>', LISTS.join(', '))
    .option('--agent <agent_id>', 'the agent whose list it is')
    .option('--agency <agency_id>', 'the agency whose list it is (it covers all its producers)')
    .option(
      '--batch <n>',
      'values a request carries',
      (v) => wholeNumber(v, '--batch', LIMITS.suppressionsPerRequest),
      LIMITS.suppressionsPerRequest / 2,
    )
    .option('--restart', 'start from the first line, not where an earlier run stopped')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: ImportOpts) => {
      if (!LISTS.includes(opts.list)) throw new CliError(`--list must be one of ${LISTS.join(', ')}`);
      if (!opts.agent === !opts.agency)
        throw new CliError('name the list’s owner: --agent ID or --agency ID');
      const owner = opts.agent ? `/agents/${segment(opts.agent)}` : `/agencies/${segment(opts.agency ?? '')}`;
      const summary = await importFile(ctx, io, file, owner, opts);
      ctx.print(opts, summary, () => keyValues(summary));
    });
}

async function importFile(ctx: CommandContext, io: CliIo, file: string, owner: string, opts: ImportOpts) {
  const size = await stat(file).then(
    (s) => s.size,
    () => {
      throw new CliError(`cannot read ${file}`);
    },
  );
  const checkpointFile = `${file}.leadgate-import`;
  const at = opts.restart ? null : await readCheckpoint(checkpointFile, owner, opts.list);
  const done: Checkpoint = at ?? { owner, list: opts.list, offset: 0, lines: 0, added: 0, skipped: 0 };
  if (at) io.err(`continuing ${file} at line ${at.lines + 1} (byte ${at.offset})\n`);
  const started = Date.now();
  let total = 0;
  let batch: { phones: string[]; emails: string[]; lines: number; skipped: number; end: number } = fresh(
    done.offset,
  );
  const send = async () => {
    // The list is one of LISTS: the action checked it before reading the file.
    const body = { list: opts.list as List, phones: batch.phones, emails: batch.emails };
    const client = ctx.client();
    const answer = opts.agent
      ? await client.request('POST', '/agents/{agent_id}/suppressions', {
          path: { agent_id: opts.agent },
          body,
        })
      : await client.request('POST', '/agencies/{agency_id}/suppressions', {
          path: { agency_id: opts.agency ?? '' },
          body,
        });
    done.offset = batch.end;
    done.lines += batch.lines;
    done.skipped += batch.skipped;
    done.added += answer.added;
    total = answer.total;
    // Written only once the server took the batch: a stop loses at most the batch in flight.
    await writeFile(checkpointFile, JSON.stringify(done));
    const share = size > 0 ? ` (${Math.round((done.offset / size) * 100)}%)` : '';
    const line = `${done.lines} lines${share}, ${done.added} added, ${done.skipped} skipped`;
    if (io.isTTY) io.err(`\r${line}   `);
    else if (Math.floor(done.lines / 100_000) > Math.floor((done.lines - batch.lines) / 100_000))
      io.err(`${line}\n`);
    batch = fresh(done.offset);
  };
  for await (const { text, end } of lines(file, done.offset)) {
    const value = entryOf(text);
    if (value?.kind === 'phone') batch.phones.push(value.value);
    else if (value?.kind === 'email') batch.emails.push(value.value);
    else batch.skipped++;
    batch.lines++;
    batch.end = end;
    if (batch.phones.length + batch.emails.length >= opts.batch) await send();
  }
  // The last batch goes even when empty: a load that adds nothing new still reloads the list.
  await send();
  if (io.isTTY) io.err('\n');
  await rm(checkpointFile, { force: true });
  const seconds = (Date.now() - started) / 1000;
  return {
    list: opts.list,
    lines: done.lines,
    added: done.added,
    skipped: done.skipped,
    total,
    seconds: Number(seconds.toFixed(1)),
  };
}

const fresh = (end: number) => ({
  phones: [] as string[],
  emails: [] as string[],
  lines: 0,
  skipped: 0,
  end,
});

async function readCheckpoint(path: string, owner: string, list: string): Promise<Checkpoint | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return null;
  const at = JSON.parse(text) as Checkpoint;
  if (at.owner !== owner || at.list !== list) {
    throw new CliError(`${path} is an import to ${at.owner} ${at.list}: finish it, or run with --restart`);
  }
  return at;
}

/** The first column of a line that reads as a phone or an email, as stored; null when none does. */
function entryOf(line: string): { kind: 'phone' | 'email'; value: string } | null {
  for (const raw of line.split(/[,;\t]/)) {
    const cell = raw
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (cell === '') continue;
    const phone = normalizePhone(cell);
    if (phone.ok) return { kind: 'phone', value: phone.value };
    if (cell.includes('@')) {
      const email = normalizeEmail(cell);
      if (email.ok) return { kind: 'email', value: email.value };
    }
  }
  return null;
}

/**
 * The file's lines from byte `start`, each with the byte offset just after it: read in chunks, so
 * a file of millions of lines never sits in memory.
 */
async function* lines(file: string, start: number): AsyncGenerator<{ text: string; end: number }> {
  let rest = Buffer.alloc(0);
  let base = start;
  for await (const chunk of createReadStream(file, { start })) {
    const data = Buffer.concat([rest, chunk as Buffer]);
    let from = 0;
    for (let nl = data.indexOf(10, from); nl !== -1; nl = data.indexOf(10, from)) {
      yield { text: data.toString('utf8', from, nl).replace(/\r$/, ''), end: base + nl + 1 };
      from = nl + 1;
    }
    base += from;
    rest = data.subarray(from);
  }
  if (rest.length > 0) yield { text: rest.toString('utf8'), end: base + rest.length };
}
