import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { constants, createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import type { Command } from 'commander';
import { createSender, type Lead, type SendResult } from '@leadgate/sender';
import { resolveFieldName } from '../../ingest/field-names.ts';
import { CliError, serverUrl } from '../api-client.ts';
import type { CliIo, CommandContext } from '../io.ts';
import { createPace } from '../pace.ts';

/**
 * `leadgate send FILE --token SOURCE_TOKEN`: a bulk import through the gateway itself, with the
 * sender client's retry policy. Each row's idempotency key is derived from the source token and the
 * row's content, so running the same file again (after a crash or a Ctrl-C) creates nothing twice:
 * rows already delivered are answered `replayed`. Its rows share the source's rate limit: a `429`
 * holds them all until its `Retry-After`, and fewer go at once after it (pace.ts).
 */
type Outcome = 'created' | 'merged' | 'replayed' | 'listened' | 'rejected' | 'failed';

interface Row {
  /** 1-based data row (a CSV's header is not a row). */
  row: number;
  lead: Lead | null;
  /** Why a row could not even be read (a JSON Lines line that is not an object). */
  unreadable?: string;
}

interface SendOpts {
  token: string;
  results?: string;
  concurrency: number;
  listen?: boolean;
  allowRefused?: boolean;
}

/** What the gateway said of a value it kept but could not use (an invalid phone, state, ZIP …). */
type Warning = { field: string; code: string; message: string };

/** One row's line of the results file. */
interface RowResult {
  outcome: Outcome;
  lead_id?: string;
  error_code?: string;
  details?: string;
  warnings?: Warning[];
}

/** Rows of a CSV file with a header row, or of a JSON Lines file, told apart by the extension. */
async function* readRows(file: string): AsyncGenerator<Row> {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') {
    const input = createReadStream(file);
    const parser = input.pipe(
      parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }),
    );
    // pipe() does not pass a read error on: unhandled, it ended the process.
    input.once('error', (err) => parser.destroy(err));
    let row = 0;
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      const lead: Lead = {};
      for (const [key, value] of Object.entries(record)) if (key && value !== '') lead[key] = value;
      yield { row: ++row, lead };
    }
    return;
  }
  if (ext === '.jsonl' || ext === '.ndjson') {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let row = 0;
    for await (const line of lines) {
      if (line.trim() === '') continue;
      row++;
      try {
        const value: unknown = JSON.parse(line);
        if (value && typeof value === 'object' && !Array.isArray(value)) yield { row, lead: value as Lead };
        else yield { row, lead: null, unreadable: 'not a JSON object' };
      } catch {
        yield { row, lead: null, unreadable: 'not JSON' };
      }
    }
    return;
  }
  throw new CliError(`${file}: give a .csv file (with a header row) or a .jsonl file`);
}

/** The row's key: the same row for the same source always gets the same key. */
export function rowKey(token: string, lead: Lead): string {
  const canonical = JSON.stringify(
    Object.keys(lead)
      .sort()
      .map((k) => [k, lead[k]]),
  );
  return `import-${createHash('sha256').update(`${token.toLowerCase()}\n${canonical}`).digest('hex').slice(0, 40)}`;
}

function outcomeOf(result: SendResult): RowResult {
  if (result.ok) {
    const warnings = result.answer.warnings ?? [];
    return {
      outcome: result.outcome === 'ignored' ? 'created' : result.outcome,
      ...(result.leadId ? { lead_id: result.leadId } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  }
  const why = {
    ...(result.errorCode ? { error_code: result.errorCode } : {}),
    ...(result.details ? { details: result.details } : {}),
  };
  return { outcome: result.reason === 'rejected' ? 'rejected' : 'failed', ...why };
}

/** What each column would become, as the gateway's alias table reads it (for --listen). */
function mappingSummary(columns: Iterable<string>): string {
  const lines = [...columns].map((column) => {
    const resolved = resolveFieldName(column);
    return `  ${column} → ${resolved ? resolved.target : 'custom_fields'}`;
  });
  return ['What each column maps to:', ...lines].join('\n');
}

/** Rows shown one by one with their warnings before the rest are only counted. */
const WARNED_ROWS_SHOWN = 10;

/** The warnings of the rows, counted by code, and the first rows' in full, for the summary. */
function warningSummary(warned: Array<{ row: number; warnings: Warning[] }>): string[] {
  if (warned.length === 0) return [];
  const byCode = new Map<string, number>();
  for (const { warnings } of warned)
    for (const w of warnings) byCode.set(w.code, (byCode.get(w.code) ?? 0) + 1);
  const rows = [...warned].sort((a, b) => a.row - b.row);
  return [
    `warnings (kept, not refused): ${[...byCode].map(([c, n]) => `${c} ${n}`).join(', ')}`,
    ...rows
      .slice(0, WARNED_ROWS_SHOWN)
      .flatMap(({ row, warnings }) => warnings.map((w) => `  row ${row}: ${w.code} ${w.message}`)),
    ...(rows.length > WARNED_ROWS_SHOWN
      ? [`  … and ${rows.length - WARNED_ROWS_SHOWN} more rows with warnings (each in --results)`]
      : []),
  ];
}

/** The file can be read, or a one-line error naming it. */
async function readable(file: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** The results file, open for writing, or a one-line error naming it (an unopened stream's error ended the process). */
async function writable(file: string): Promise<WriteStream> {
  const stream = createWriteStream(file);
  try {
    await once(stream, 'open');
    return stream;
  } catch (err) {
    throw new CliError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

export function addSendCommand(program: Command, ctx: CommandContext, io: CliIo): void {
  program
    .command('send')
    .description(
      'import a CSV (header row) or JSON Lines file of leads through the gateway; safe to run again',
    )
    .argument('<file>', 'a .csv or .jsonl file')
    .requiredOption('--token <token>', 'the lead source token to send with')
    .option(
      '--results <file>',
      'write one JSON line per row: {row, outcome, lead_id?, error_code?, details?, warnings?}',
    )
    .option(
      '--concurrency <n>',
      'rows in flight at once',
      (v) => {
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 64)
          throw new CliError('--concurrency must be 1 to 64');
        return Number(v);
      },
      4,
    )
    .option(
      '--listen',
      'a dry run: every row in Listen mode (mapped and stored as a sample, nothing created)',
    )
    .option('--allow-refused', 'exit 0 even when the gateway refused some rows (they are in the summary)')
    .action(async (file: string, opts: SendOpts) => {
      const pace = createPace(opts.concurrency, globalThis.fetch.bind(globalThis));
      const sender = createSender({ url: serverUrl(io.env), token: opts.token, fetch: pace.fetch });
      await readable(file);
      const results: WriteStream | null = opts.results ? await writable(opts.results) : null;
      const counts = new Map<Outcome, number>();
      const codes = new Map<string, number>();
      const warned: Array<{ row: number; warnings: Warning[] }> = [];
      const columns = new Set<string>();
      const started = Date.now();
      let done = 0;
      const progress = io.isTTY
        ? setInterval(
            () => io.err(`\r${done} rows · ${[...counts].map(([o, n]) => `${o} ${n}`).join(' · ')}   `),
            250,
          )
        : null;
      const rows = readRows(file); // an async generator queues concurrent next() calls
      const worker = async () => {
        for (let item = await rows.next(); !item.done; item = await rows.next()) {
          const { row, lead, unreadable } = item.value;
          let line: RowResult;
          if (!lead) line = { outcome: 'rejected', error_code: 'INVALID_JSON' };
          else {
            for (const key of Object.keys(lead)) columns.add(key);
            const key = rowKey(opts.token, lead);
            line = outcomeOf(
              await pace.run(() => sender.send(lead, { key, ...(opts.listen ? { listen: true } : {}) })),
            );
          }
          counts.set(line.outcome, (counts.get(line.outcome) ?? 0) + 1);
          if (line.error_code) codes.set(line.error_code, (codes.get(line.error_code) ?? 0) + 1);
          if (line.warnings) warned.push({ row, warnings: line.warnings });
          results?.write(
            `${JSON.stringify({ row, ...line, ...(unreadable ? { details: unreadable } : {}) })}\n`,
          );
          done++;
        }
      };
      try {
        await Promise.all(Array.from({ length: opts.concurrency }, worker));
      } finally {
        if (progress) {
          clearInterval(progress);
          io.err('\r');
        }
        if (results) await new Promise((resolve) => results.end(resolve));
      }
      const seconds = (Date.now() - started) / 1000;
      const summary = [
        `${done} rows in ${seconds.toFixed(1)} s (${Math.round(done / Math.max(seconds, 0.001))} rows/s): ${
          [...counts].map(([o, n]) => `${o} ${n}`).join(', ') || 'nothing'
        }`,
        ...(codes.size ? [`errors: ${[...codes].map(([c, n]) => `${c} ${n}`).join(', ')}`] : []),
        ...warningSummary(warned),
        ...(opts.listen ? [mappingSummary(columns)] : []),
      ];
      ctx.print({}, null, () => summary.join('\n'));
      if ((counts.get('failed') ?? 0) > 0) {
        throw new CliError(
          `${counts.get('failed')} rows could not be delivered after retries; run the same command again to send them (nothing is sent twice)`,
        );
      }
      // A refused row is a lead that did not land: silence here hid a wrong token's whole file.
      const refused = counts.get('rejected') ?? 0;
      if (refused > 0 && !opts.allowRefused) {
        throw new CliError(
          `${refused} of ${done} rows were refused (errors above${opts.results ? `; each row's in ${opts.results}` : ''}); fix them and run again, or pass --allow-refused to accept them`,
        );
      }
    });
}
