import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import layers from '../src/layers.json' with { type: 'json' };

/**
 * The folder rule of src/layers.json (which ESLint enforces) is the truth; this checks that it has
 * no circle, covers every folder, and that the docs that state it say the same.
 */
const SRC = new URL('../src/', import.meta.url).pathname;
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const folders = Object.keys(layers.folders);
const graph: Record<string, string[]> = { ...layers.folders, ...layers.entries };

describe('src/layers.json', () => {
  it('When src/ is listed, then every folder has a rule and a README, and every rule a folder', () => {
    const onDisk = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(onDisk.sort()).toEqual([...folders].sort());
    for (const folder of folders) expect(existsSync(join(SRC, folder, 'README.md')), folder).toBe(true);
    for (const file of [...layers.shared, ...Object.keys(layers.entries)]) {
      expect(existsSync(join(SRC, file)), file).toBe(true);
    }
  });

  it('When the rule is followed from any folder, then it never comes back (no circle)', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (node: string, path: string[]) => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') throw new Error(`import circle: ${[...path, node].join(' → ')}`);
      state.set(node, 'visiting');
      for (const next of graph[node] ?? []) {
        expect(Object.hasOwn(graph, next), `${node} → unknown ${next}`).toBe(true);
        visit(next, [...path, node]);
      }
      state.set(node, 'done');
    };
    for (const node of Object.keys(graph)) visit(node, []);
  });

  it.each(folders)(
    'When src/%s/README.md says what it may import, then it says what the rule says',
    (folder) => {
      const readme = read(`src/${folder}/README.md`);
      const line = readme.split('\n').find((l) => l.startsWith('May import:'));
      expect(line, `src/${folder}/README.md needs a "May import:" line`).toBeDefined();
      const named = [...(line ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect(named.sort()).toEqual([...(graph[folder] ?? [])].sort());
    },
  );

  it.each(folders)('When src/%s/README.md names a file, then the file is there', (folder) => {
    const readme = read(`src/${folder}/README.md`);
    for (const [, name] of readme.matchAll(/`([\w./-]+\.(?:ts|json|md))`/g)) {
      if (!name) continue;
      const candidates = [join(SRC, folder, name), join(SRC, name), join(SRC, '..', name)];
      expect(
        candidates.some((path) => existsSync(path)),
        `src/${folder}/README.md names ${name}`,
      ).toBe(true);
    }
  });

  it('When docs/architecture.md draws the folders, then its arrows are exactly the rule', () => {
    const doc = read('docs/architecture.md');
    const block = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(doc)?.[1] ?? '';
    // Nodes are drawn as `id` or `id["label"]` (ids cannot hold dots or dashes); arrows go id --> id.
    const labels = new Map(
      [...block.matchAll(/^\s+(\w+)(?:\["([^"]+)"\])?$/gm)].map((m) => [m[1], m[2] ?? m[1]]),
    );
    const drawn = [...block.matchAll(/^\s+(\w+) --> (\w+)$/gm)].map(
      (m) => `${labels.get(m[1] ?? '')} → ${labels.get(m[2] ?? '')}`,
    );
    const rule = Object.entries(graph).flatMap(([from, tos]) => tos.map((to) => `${from} → ${to}`));
    expect(drawn.sort()).toEqual(rule.sort());
  });
});

describe("a lead's writes", () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory()
        ? files(path)
        : name.endsWith('.ts') && !name.endsWith('.test.ts')
          ? [path]
          : [];
    });

  it('When a file outside src/leads/ writes the leads table, then it is only the one-statement writes of a delivery, with the leads’ own row shapes', () => {
    const writers = files(SRC).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/\b(?:UPDATE|INSERT INTO|DELETE FROM)\s+leads\b[^\n]*/g)].map(
        (m) => `${path.slice(SRC.length)}: ${m[0]}`,
      ),
    );
    const outside = writers.filter((w) => !w.startsWith('leads/'));
    expect(outside).toEqual([
      "gateway/write-merge.ts: UPDATE leads l SET ${setList(LEAD_UPDATE_ROW, go, 'update.')}, updated_at = now()",
      'gateway/write-new-contact.ts: INSERT INTO leads (${columnList(LEAD_ROW)})',
    ]);
    expect(writers.length).toBeGreaterThan(outside.length);
  });
});

describe('CONTRIBUTING.md', () => {
  it('When it draws src/, then it names every folder there and no other', () => {
    const drawn = [...read('CONTRIBUTING.md').matchAll(/^src\/([\w-]+)\/ /gm)].map((m) => m[1]).sort();
    const onDisk = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(drawn).toEqual(onDisk.sort());
  });
});
