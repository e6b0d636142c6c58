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
    // React calls whatever an effect returns as its cleanup, so an effect whose body is an
    // expression can crash when its page unmounts: `() => window.scrollTo(0, 0)` returns a
    // Promise in current Chromium ('TypeError: n is not a function' on leaving About).
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['callee.name', 'callee.property.name'].map((callee) => ({
          selector: `CallExpression[${callee}=/^use(Layout|Insertion)?Effect$/]:not([arguments.0.body.type='BlockStatement'])`,
          message:
            'Give an effect a block body and return its cleanup explicitly: React calls whatever the callback returns when the component unmounts.',
        })),
      ],
    },
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
