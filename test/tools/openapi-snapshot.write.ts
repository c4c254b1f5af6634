import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTestApp } from '../support/app';

/**
 * `npm run openapi:snapshot`: writes the served document to docs/openapi.json. Not a test (npm test
 * never runs it: jest.config.js's testMatch leaves test/tools/ out), and refused in CI, where the
 * snapshot test (test/e2e/openapi.e2e-spec.ts) must compare, never regenerate.
 */
const SNAPSHOT = resolve(__dirname, '../../docs/openapi.json');

it('writes the served OpenAPI document to docs/openapi.json', async () => {
  if (process.env.CI) throw new Error('npm run openapi:snapshot does not run in CI: regenerate docs/openapi.json locally and commit it.');
  const t = await createTestApp();
  try {
    const served = (await t.http().get('/openapi.json').expect(200)).body as unknown;
    writeFileSync(SNAPSHOT, JSON.stringify(served, null, 2) + '\n');
  } finally {
    await t.close();
  }
});
