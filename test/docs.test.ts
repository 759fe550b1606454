import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../src/errors.ts';
import { LEAD_FIELDS } from '../src/ingest/fields.ts';

/** The repository must explain itself: every link in its docs resolves inside it. */
const ROOT = resolve(new URL('..', import.meta.url).pathname);

/** Every file below `dir`, as paths relative to the repository. */
function filesBelow(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesBelow(path) : [path];
  });
}

function markdownFiles(): string[] {
  return [
    'README.md',
    'CONTRIBUTING.md',
    ...[...filesBelow('docs'), ...filesBelow('src'), ...filesBelow('packages/sender')].filter(
      (f) => f.endsWith('.md') && !f.includes('/dist/'),
    ),
  ];
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? '')));
}

describe('docs: links', () => {
  it.each(markdownFiles())(
    'When %s links somewhere, then the target is in the repository (and so is the heading)',
    (file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^(https?:|mailto:)/.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const resolved = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
        expect(relative(ROOT, resolved).startsWith('..'), `${file}: ${target} leaves the repository`).toBe(
          false,
        );
        expect(existsSync(resolved), `${file}: ${target} does not exist`).toBe(true);
        if (anchor)
          expect(anchors(relative(ROOT, resolved)).has(anchor), `${file}: no heading #${anchor}`).toBe(true);
      }
      expect(text, `${file} points outside the repository`).not.toMatch(/\.\.\/shared\//);
    },
  );

  it('When a doc names a source file, then the file exists', () => {
    const sources = new Set<string>();
    for (const dir of [
      'src',
      'test',
      'bench',
      'scripts',
      'migrations',
      'packages/sender/src',
      'packages/sender/test',
    ]) {
      for (const path of filesBelow(dir)) sources.add(path).add(path.slice(path.lastIndexOf('/') + 1));
    }
    for (const name of readdirSync(ROOT)) sources.add(name); // vitest.config.ts …
    for (const file of markdownFiles()) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, name] of text.matchAll(/`([\w./-]+\.(?:ts|sql))`/g)) {
        if (!name || name.includes('NNNN')) continue;
        const bare = name.replace(/^\.\//, '');
        const known = sources.has(bare) || [...sources].some((path) => path.endsWith(`/${bare}`));
        expect(known, `${file} names ${name}`).toBe(true);
      }
    }
  });

  it('When source comments cite a document, then it is one of the repository', () => {
    const cited = new Set<string>();
    for (const path of filesBelow('src').filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      for (const [doc] of text.matchAll(/\bdocs\/[\w./-]+\.md\b/g)) cited.add(doc);
      expect(text, path).not.toMatch(/\.\.\/shared\/|decisions file/i);
    }
    for (const doc of cited) expect(existsSync(join(ROOT, doc)), doc).toBe(true);
  });
});

describe('docs: decision records', () => {
  const records = readdirSync(join(ROOT, 'docs/decisions'))
    .filter((name) => name !== 'README.md')
    .sort();
  const index = readFileSync(join(ROOT, 'docs/decisions/README.md'), 'utf8');

  it('When records are numbered, then the numbers run from 0001 without a gap, one file each', () => {
    expect(records.length).toBeGreaterThan(0);
    records.forEach((name, i) =>
      expect(name).toMatch(new RegExp(`^${String(i + 1).padStart(4, '0')}-[a-z0-9-]+\\.md$`)),
    );
  });

  it.each(records)(
    'When %s is a record, then it is short, titled by its number and has its three parts',
    (name) => {
      const text = readFileSync(join(ROOT, 'docs/decisions', name), 'utf8');
      expect(text.split('\n').length, `${name} has 60 lines or more`).toBeLessThan(60);
      expect(text.split('\n')[0]).toMatch(new RegExp(`^# ${name.slice(0, 4)}\\. \\S`));
      for (const part of ['## Context', '## Decision', '## Consequences'])
        expect(text, `${name}: ${part}`).toContain(`\n${part}\n`);
    },
  );

  it('When the index lists records, then it lists each exactly once and nothing else', () => {
    const listed = [...index.matchAll(/\]\((\d{4}-[\w-]+\.md)\)/g)].map((m) => m[1]);
    expect([...listed].sort()).toEqual(records);
  });
});

describe('docs: the contract covers the code', () => {
  const contract = readFileSync(join(ROOT, 'docs/sender-contract.md'), 'utf8');
  const admin = readFileSync(join(ROOT, 'docs/admin-api.md'), 'utf8');

  it('When an error code exists, then the sender contract or the admin API doc states it', () => {
    for (const code of Object.keys(ERRORS)) {
      expect(contract.includes(`\`${code}\``) || admin.includes(`\`${code}\``), code).toBe(true);
    }
  });

  it('When a lead field exists, then the sender contract lists it', () => {
    const fieldsTable = contract.slice(contract.indexOf('### Fields'), contract.indexOf('### Appointments'));
    for (const field of Object.keys(LEAD_FIELDS)) expect(fieldsTable, field).toContain(`\`${field}\``);
  });

  it('When the server reads an environment variable, then the admin API doc states it', () => {
    const config =
      readFileSync(join(ROOT, 'src/config.ts'), 'utf8') +
      readFileSync(join(ROOT, 'src/cli/api-client.ts'), 'utf8');
    const variables = new Set([...config.matchAll(/env(?:\.|\[')([A-Z_]{3,})/g)].map((m) => m[1] ?? ''));
    expect(variables.size).toBeGreaterThan(5);
    for (const name of variables) expect(admin, name).toContain(`\`${name}\``);
  });
});
