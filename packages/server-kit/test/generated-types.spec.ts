import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const kit = resolve(__dirname, '..');

/**
 * src/api.generated.ts is committed (the kit builds without a generator run) and must be what
 * `npm run generate -w @arcade-coin/server-kit` makes from docs/openapi.json now: a changed API
 * without regenerated types fails here.
 */
describe('the committed API types', () => {
  it('are what openapi-typescript generates from docs/openapi.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-kit-types-'));
    try {
      const out = join(dir, 'api.generated.ts');
      const cli = join(dirname(require.resolve('openapi-typescript/package.json', { paths: [kit] })), 'bin/cli.js');
      await run(process.execPath, [cli, resolve(kit, '../../docs/openapi.json'), '-o', out], { cwd: kit });
      const committed = readFileSync(resolve(kit, 'src/api.generated.ts'), 'utf8');
      const fresh = readFileSync(out, 'utf8');
      // Not toBe on the texts: a diff of 14,000 lines says less than what to do.
      expect(committed === fresh ? 'current' : 'stale: run `npm run generate -w @arcade-coin/server-kit` and commit src/api.generated.ts').toBe('current');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
