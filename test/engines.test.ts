import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The project runs on Node 20.19 or newer, so nothing it installs may ask for more: a package that
 * needs Node 22 (as cookie 2 does, pulled in by Fastify and @fastify/cookie, hence the override in
 * package.json) may work by accident today and break in a patch release, and npm warns on every
 * install of it. Checked in the lockfile, whatever Node runs the tests.
 */
const ROOT = new URL('..', import.meta.url);

interface Locked {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as {
  packages: Record<string, Locked>;
};
const oldest = semver.minVersion(manifest.engines.node)?.version ?? '';

describe('engines', () => {
  it('When package.json names the oldest Node, then the README names the same one', () => {
    expect(oldest).toMatch(/^\d+\.\d+\.\d+$/);
    const [major, minor] = oldest.split('.');
    expect(readFileSync(new URL('README.md', ROOT), 'utf8')).toContain(`Node ${major}.${minor} or newer`);
  });

  it('When the lockfile is installed on the oldest Node the project supports, then no package it needs asks for a newer one', () => {
    const tooNew = Object.entries(lock.packages)
      // An optional package whose engines do not match is skipped by npm, and what needs it must do
      // without (rollup's optional LZMA binding, for one): it is not one the project runs on.
      .filter(([path, pkg]) => path !== '' && !pkg.optional)
      .flatMap(([path, pkg]) => {
        const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
        return range && !semver.satisfies(oldest, range) ? [`${path}@${pkg.version}: node ${range}`] : [];
      });
    expect(tooNew).toEqual([]);
  });

  it('When the sender client is installed on its own, then it states the same oldest Node', () => {
    const sender = JSON.parse(readFileSync(new URL('packages/sender/package.json', ROOT), 'utf8')) as {
      engines?: { node?: string };
    };
    expect(semver.minVersion(sender.engines?.node ?? '*')?.version).toBe(oldest);
  });
});
