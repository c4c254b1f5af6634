import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestApp } from '../support/app';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createWorldApp, unique } from '../support/factories';

const run = promisify(execFile);

type MainFlows = (options: { baseUrl: string; admin: { email: string; password: string }; unique: string }) => Promise<{
  balanceAfterInsert: number;
  board: { rank: number; initials: string; score: string }[];
  verifiedCoins: number;
}>;
const root = resolve(__dirname, '../..');
const generated = resolve(root, 'test/client/.generated/api.d.ts');

/**
 * Issue 14: "A strict client generated with openapi-typescript + openapi-fetch cannot sign up
 * without `linkPlayer`". Types are generated from the committed docs/openapi.json (into a
 * git-ignored folder, so they are always current), test/client/flows.ts is compiled against them
 * with `tsc --strict`, then run against the test app over real HTTP.
 */
describe('a strict client generated from docs/openapi.json (openapi-typescript + openapi-fetch)', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    mkdirSync(resolve(root, 'test/client/.generated'), { recursive: true });
    await run(process.execPath, [resolve(root, 'node_modules/openapi-typescript/bin/cli.js'), 'docs/openapi.json', '-o', generated], { cwd: root });
    t = await createWorldApp();
    await t.app.nest.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.nest.getHttpServer().address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => t?.close());

  it('compiles with tsc --strict: a strict client can sign up without linkPlayer and follow every main flow', async () => {
    const tsc = await run(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', 'test/client/tsconfig.json'], { cwd: root }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? 'tsc failed', stderr: error.stderr ?? '' }),
    );
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
  }, 120_000);

  it('drives sign-up, publishing, a play session, insert-coin, a score and the board through openapi-fetch', async () => {
    // Loaded here and untyped: flows.ts is type-checked by its own strict tsconfig above, against
    // types that exist only once beforeAll has generated them.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: loaded only once its types exist
    const { mainFlows } = require('../client/flows') as { mainFlows: MainFlows };
    const result = await mainFlows({ baseUrl, admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, unique: unique('t').toLowerCase() });
    expect(result.balanceAfterInsert).toBe(8);
    expect(result.verifiedCoins).toBe(2);
    expect(result.board).toEqual([{ rank: 1, initials: 'TYP', score: '4200' }]);
  }, 60_000);
});
