import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';

const root = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; os?: string[]; cpu?: string[]; optional?: boolean }>;
};

/** What `npm ci` installs on this platform: optional packages for other systems are skipped, and not engine-checked. */
function installedHere(entry: { os?: string[]; cpu?: string[] }): boolean {
  const fits = (list: string[] | undefined, value: string) => !list || list.some((v) => v === value || (v.startsWith('!') ? v.slice(1) !== value : false));
  return fits(entry.os, process.platform) && fits(entry.cpu, process.arch);
}

describe('clean install', () => {
  // The oldest Node the README and package.json name ("Node.js 24.11 or later": TypeORM 1.1 needs it on the 24 line).
  const oldest = semver.minVersion(manifest.engines.node)!.version;

  it('npm ci prints no EBADENGINE for file-type: every locked package accepts the oldest Node we support', () => {
    expect(oldest).toBe('24.11.0');
    const refused = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && installedHere(entry))
      .flatMap(([path, entry]) => {
        const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
        if (!range) return [];
        return [oldest, process.versions.node].filter((v) => !semver.satisfies(v, range)).map((v) => `${path} needs node ${range} (not ${v})`);
      });
    expect(refused).toEqual([]);
  });

  it('pins file-type, which @nestjs/common pulls in, to a release that supports the oldest Node we support', () => {
    const copies = Object.entries(lock.packages).filter(([path]) => path.endsWith('node_modules/file-type'));
    expect(copies.length).toBeGreaterThan(0);
    for (const [, entry] of copies) expect(semver.satisfies(oldest, (entry.engines as { node: string }).node)).toBe(true);
  });
});
