#!/usr/bin/env node
// Launcher for `npx leadgate`: registers tsx in this process and runs the TypeScript CLI,
// so signals reach the server directly and no build step is needed in a checkout.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
