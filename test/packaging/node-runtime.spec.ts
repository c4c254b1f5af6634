import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';

const root = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };

/**
 * The `node` devDependency (the runtime from the npm registry) is first on the PATH of every npm
 * script, so `npm test` runs on it whatever Node the machine has (issue 29 item 7). This fails
 * when the suite is started by an older system Node (`node_modules/.bin/jest` called directly).
 */
describe('the Node that runs the suite', () => {
  it('is the pinned Node 24 LTS, which package.json engines accepts', () => {
    expect(manifest.devDependencies.node).toBe('24.21.0');
    expect(process.version).toBe(`v${manifest.devDependencies.node}`);
    expect(semver.major(process.version)).toBe(24);
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
  });
});
