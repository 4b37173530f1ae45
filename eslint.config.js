// ESLint (flat config): typescript-eslint's type-checked recommended rules for the TypeScript, plain
// recommended rules for the JavaScript (the console's browser modules, bin/, scripts/). Formatting is
// Prettier's job (.prettierrc.json); import rules are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'packages/*/dist/', 'node_modules/', 'data/', 'coverage/', 'test/fixtures/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding kept for its position or to drop it from a rest object.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Numbers, booleans and nulls read fine in messages; objects still may not be stringified by accident.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      // A `let` that callbacks read before its one assignment (they see undefined) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Passing on a caught error as it came (unknown) is not inventing a non-Error reason.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // X12 sanitizing and terminal-output tests match control characters on purpose.
      'no-control-regex': 'off',
      // Fastify route handlers and hooks are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
      // Fastify hooks and node:test callbacks take promise-returning functions where void is declared.
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, properties: false } }],
    },
  },
  {
    // Tests read parsed JSON answers as `any` on purpose (test/helpers/server.ts) and assert their shape.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // One clock (src/domain/clock.ts): the service reads the time only through the Clock it is given, so
    // a test moves it instead of sleeping. `new Date(value)` parsing a value is fine. The console's
    // browser modules (src/http/console/*.js) run in the user's browser, outside the service.
    files: ['src/**/*.ts'],
    ignores: ['src/domain/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.object.name='Date'][callee.property.name='now']",
          message: 'Read the time from the injected Clock (src/domain/clock.ts): clock.now().',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from the injected Clock (src/domain/clock.ts): dateOf(clock), isoNow(clock) or clock.today().',
        },
      ],
    },
  },
  {
    // Migrations run against the database as it was at their time, not today's typed schema.
    files: ['src/store/migrations.ts', 'src/store/migration-steps/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['src/http/console/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
