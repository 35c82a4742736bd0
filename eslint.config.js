// The TypeScript rules the project follows by habit, checked by `npm run lint:code` (part of `npm test`).
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'spec/openapi/output/**'] },
  {
    files: ['lib/**/*.ts', 'spec/**/*.ts', 'samples/**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      // Decorator metadata is emitted: an import used only in a decorated signature is a value, and must stay one.
      parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // `require('x') as typeof import('x')` types the modules loaded on first use, so `import()` types stay allowed.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'separate-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
  {
    // Node built-ins load on first use through lib/runtime/node-builtins.ts, so importing rxrest loads none and a
    // bundler for a Worker finds none to resolve; types may still come from them.
    files: ['lib/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^node:', allowTypeImports: true, message: 'load it with nodeBuiltin() (lib/runtime)' }] },
      ],
    },
  },
);
