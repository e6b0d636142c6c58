// Lint: TypeScript rules, React hooks, and the architecture rule that core stays independent.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '.cache/',
      'build/',
      '.sst/',
      'node_modules/',
      '.data/',
      'test-results/',
      'playwright-report/',
      'sst-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '#web/*',
                '**/web/**',
                '#scripts/*',
                '**/functions/**',
                '**/stacks/**',
                '@remix-run/*',
                'aws-lambda',
              ],
              message: 'core imports nothing from web, functions, stacks, scripts or Remix.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only core/config reads process.env.' },
      ],
    },
  },
  { files: ['core/config/index.ts'], rules: { 'no-restricted-properties': 'off' } },
  {
    files: ['sst.config.ts', 'stacks/**/*.ts'],
    rules: { '@typescript-eslint/triple-slash-reference': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'functions/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^#core/[^/]+/.+',
              message: "Import a concept through its index: '#core/<concept>'.",
            },
          ],
        },
      ],
    },
  },
);
