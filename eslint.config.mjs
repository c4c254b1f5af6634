// ESLint 9 flat config: typescript-eslint's recommended rules everywhere, and its type-checked
// rules except those that only restate that a JSON body is `any` (supertest's `res.body`, parsed
// API answers in the browser code): the no-unsafe-* family and a few stylistic ones listed below.
// Module boundaries are dependency-cruiser's job (.dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TYPED = ['**/*.ts', '**/*.tsx'];

export default tseslint.config(
  // packages/server-kit/src/api.generated.ts: openapi-typescript's output, checked against docs/openapi.json by its own test.
  { ignores: ['**/dist/**', 'node_modules/**', 'packages/server-kit/src/api.generated.ts', 'coverage/**', 'bench/results/**', 'docs/**', 'test/client/**', 'src/web/demo-games/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...tseslint.configs.recommendedTypeCheckedOnly.map((config) => ({ ...config, files: TYPED })),
  {
    files: TYPED,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // About 1,300 findings, nearly all `res.body.x` in tests and parsed JSON in page scripts: typing
      // every response body is the typed-client test's job (test/client), not the lint's.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Style rather than bugs here: `as` narrowing that the compiler could infer, async methods that
      // implement an async interface without awaiting, `${unknown}` in test messages, bench's method refs.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
  {
    // Browser bundles (esbuild) sit outside tsconfig.json's program: syntax rules only.
    files: ['src/web/**/*.browser.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
