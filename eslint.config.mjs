// ESLint (flat config): Next.js's rules (core web vitals, TypeScript) and the project's own
// structural rules. Run by `npm run lint` and by `npm test`.
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

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
    },
  },
];

export default config;
