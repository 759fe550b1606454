import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { isJsonObject } from '../../json.ts';
import { CliError, type AdminAnswer, type AdminBody } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { show, table } from '../output.ts';

interface MapOpts extends JsonOpt {
  set: string[];
  ignore: string[];
  remove: string[];
  file?: string;
  clear?: boolean;
}

type MappingAnswer = AdminAnswer<'GET', '/sources/{source_id}/mapping'>;
type Rules = AdminBody<'PUT', '/sources/{source_id}/mapping'>['rules'];

const collect = (value: string, previous: string[]) => [...previous, value];

/** `sources map SOURCE_ID`: show a source's mapping rules, or change them. */
export function addMappingCommand(sources: Command, ctx: CommandContext): void {
  sources
    .command('map')
    .description('show a source’s mapping rules (sent key → lead field), or change them with the options')
    .argument('<source_id>')
    .option('--set <key=field>', 'map the sent key to a lead field (repeatable)', collect, [])
    .option('--ignore <key>', 'ignore the sent key: it is not stored at all (repeatable)', collect, [])
    .option('--remove <key>', 'remove the rule of the key (repeatable)', collect, [])
    .option('--file <rules.json>', 'start from the rules in a file ({"rules": {...}} or the rules object)')
    .option('--clear', 'start from no rules')
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, opts: MapOpts) => {
      const path = { source_id: sourceId };
      const edits = ruleEdits(opts);
      const client = ctx.client();
      let data: MappingAnswer;
      if (edits.size === 0 && !opts.file && !opts.clear)
        data = await client.request('GET', '/sources/{source_id}/mapping', { path });
      else {
        const start = opts.file
          ? readRulesFile(opts.file)
          : opts.clear
            ? {}
            : (await client.request('GET', '/sources/{source_id}/mapping', { path })).rules;
        data = await client.request('PUT', '/sources/{source_id}/mapping', {
          path,
          body: { rules: applyEdits(start, edits) },
        });
      }
      ctx.print(opts, data, () => renderRules(data));
    });
}

/** key → its new target (a field, or null to ignore it), or `undefined` to remove its rule. */
function ruleEdits(opts: MapOpts): Map<string, string | null | undefined> {
  if (opts.file && opts.clear) throw new CliError('give --file or --clear, not both');
  const edits = new Map<string, string | null | undefined>();
  const add = (key: string, target: string | null | undefined) => {
    if (key === '') throw new CliError('a rule needs a key');
    if (edits.has(key)) throw new CliError(`the key ${JSON.stringify(key)} is given twice`);
    edits.set(key, target);
  };
  for (const pair of opts.set) {
    const at = pair.lastIndexOf('=');
    if (at < 0 || at === pair.length - 1)
      throw new CliError(`--set takes KEY=FIELD, got ${JSON.stringify(pair)}`);
    add(pair.slice(0, at), pair.slice(at + 1));
  }
  for (const key of opts.ignore) add(key, null);
  for (const key of opts.remove) add(key, undefined);
  return edits;
}

function applyEdits(start: Rules, edits: Map<string, string | null | undefined>): Rules {
  const rules = new Map(Object.entries(start));
  for (const [key, target] of edits) {
    if (target === undefined) rules.delete(key);
    else rules.set(key, target);
  }
  return Object.fromEntries(rules);
}

/** A rules file: `{"rules": {...}}` as `sources map --json` prints it, or the rules object itself. */
function readRulesFile(file: string): Rules {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`cannot read rules from ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const rules = isJsonObject(parsed) && isJsonObject(parsed.rules) ? parsed.rules : parsed;
  if (!isJsonObject(rules)) throw new CliError(`${file} must hold a JSON object of rules`);
  return rules;
}

function renderRules(data: MappingAnswer): string {
  const entries = Object.entries(data.rules);
  if (entries.length === 0) {
    return `No mapping rules for source ${data.source_id}: keys are matched by name and alias.`;
  }
  return [
    `Mapping rules of source ${data.source_id} (applied before the aliases):`,
    table(
      ['KEY', 'FIELD'],
      entries.map(([key, target]) => [key, target === null ? '(ignored)' : show(target)]),
    ),
  ].join('\n');
}
