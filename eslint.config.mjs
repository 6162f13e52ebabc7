// ESLint (flat config): Next.js's rules (core web vitals, TypeScript) and the project's own
// structural rules. Run by `npm run lint` and by `npm test`.
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import { TRANSACTION_RULES } from './scripts/eslint-transaction-rules.mjs';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'lib/generated/**',
      'lib/http/route-manifest.ts',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
      'bench-results/**',
      'data/**',
      'next-env.d.ts',
    ],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Sizes a reader can hold (ARCHITECTURE.md): no file over 300 lines, no function over 80,
      // blank lines and comments not counted. In tests a describe() callback is a function too:
      // a long one becomes module-level tests or a file of its own.
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  // Transactions are explicit (issue 24): a function that touches the database takes the client
  // or the transaction it runs in as a required parameter, and code inside a transaction uses
  // the transaction it was handed. A stray db() there runs outside the transaction's snapshot
  // (PostgreSQL) or waits for it to end (the embedded database has one connection).
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      'no-restricted-syntax': ['error', ...TRANSACTION_RULES],
    },
  },
  // Layers (ARCHITECTURE.md): nothing inside lib/ reaches the API edge, and lib/'s modules import
  // each other without cycles. scripts/check-layers.mjs checks the whole picture in npm test.
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/http/**', 'lib/boot.ts', 'lib/wiring.ts', 'lib/worker.ts', 'lib/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)http/',
              message: 'lib/http is the API edge: code inside lib/ must not import it (ARCHITECTURE.md).',
            },
          ],
        },
      ],
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
];

export default config;
