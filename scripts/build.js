// Compiles src/ to dist/ and packages/sender/src/ to packages/sender/dist/ (`npm run build`, and
// `npm install`'s prepare step): tsc, then the data
// files tsc does not copy, then a stamp that bin/leadgate.js compares with src/ to know dist/ is
// current. Plain JavaScript, so the launcher can run it without TypeScript tooling loaded.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
export const STAMP = join(DIST, '.built');

/** Every file below `dir`. */
function filesIn(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesIn(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The newest modification time of the sources the server runs, the sender client's included (tests excluded). */
export function newestSource() {
  return Math.max(
    ...[...filesIn(SRC), ...filesIn(join(ROOT, 'packages', 'sender', 'src'))]
      .filter((file) => /\.(ts|json)$/.test(file) && !file.endsWith('.test.ts'))
      .map((file) => statSync(file).mtimeMs),
  );
}

/** Whether dist/ was built from the sources as they are now. */
export function isBuilt() {
  try {
    return statSync(STAMP).mtimeMs >= newestSource();
  } catch {
    return false;
  }
}

function resolveTsc() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

/** Builds dist/; returns false when TypeScript is not installed or the build fails. */
export function build({ quiet = false } = {}) {
  const tsc = resolveTsc();
  if (!tsc) return false;
  // The sender client (packages/sender) is its own package, built to its own dist/ first: the CLI imports it.
  const sender = spawnSync(
    process.execPath,
    [tsc, '-p', join(ROOT, 'packages', 'sender', 'tsconfig.build.json')],
    {
      stdio: quiet ? 'ignore' : 'inherit',
    },
  );
  if (sender.status !== 0) return false;
  const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
    stdio: quiet ? 'ignore' : 'inherit',
  });
  if (run.status !== 0) return false;
  // JSON data is imported by the code, but tsc leaves large files out of dist/.
  for (const file of filesIn(SRC).filter((f) => f.endsWith('.json') && !f.endsWith('layers.json'))) {
    const target = join(DIST, relative(SRC, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  return true;
}

// As `prepare` in an install without dev dependencies there is no TypeScript: nothing to build, and
// no reason to fail the install (a failing build, though, fails it).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!resolveTsc()) console.log('leadgate: TypeScript is not installed; dist/ not built');
  else process.exitCode = build() ? 0 : 1;
}
