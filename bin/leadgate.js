#!/usr/bin/env node
// Launcher for `npm start` and `npx leadgate`. Runs the compiled CLI in dist/ (built by
// `npm install`'s prepare step), so a restarted server answers within a second or so. When dist/
// is missing or older than src/, it builds first; where it cannot (TypeScript not installed), it
// runs the TypeScript sources through tsx. Either way signals reach the server directly.
import { build, isBuilt } from '../scripts/build.js';

if (isBuilt() || build({ quiet: true })) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
