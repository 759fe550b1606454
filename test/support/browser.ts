import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium for the browser tests, driven by playwright-core (never a browser download).
 * Where it is missing the browser tests are skipped with a note, unless LEADGATE_BROWSER_TESTS is
 * `required` (as in CI, where .ci/run installs the package): then they fail.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserAvailable = existsSync(CHROMIUM);
if (!browserAvailable && process.env.LEADGATE_BROWSER_TESTS === 'required') {
  throw new Error(`Browser tests are required but ${CHROMIUM} is missing: apt-get install chromium`);
}

/** Headless, with the flags a machine without outside network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
