// ESLint 9 flat config: typescript-eslint's recommended rules everywhere, plus the type-aware rules
// that catch real bugs in this code base cheaply (a promise nobody awaits, a promise where a value
// was meant). Module boundaries are dependency-cruiser's job (.dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'docs/**', 'test/client/**', 'src/web/demo-games/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Browser bundles (esbuild) sit outside tsconfig.json's program: syntax rules only.
    files: ['src/web/**/*.browser.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
