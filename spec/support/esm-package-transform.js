// A Jest transform for the ES-module-only packages the library uses (jose): Node loads them with require(), but
// Jest's own module system needs CommonJS. TypeScript's transpiler does it, keeping class fields as class fields
// (jose's error classes set fields in the expression that calls super).
const { createHash } = require('node:crypto');
const ts = require('typescript');

const compilerOptions = {
  allowJs: true,
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  useDefineForClassFields: true,
  inlineSourceMap: true,
  inlineSources: true,
};

module.exports = {
  process(source, path) {
    return { code: ts.transpileModule(source, { fileName: path, compilerOptions }).outputText };
  },
  getCacheKey(source, path) {
    return createHash('sha256').update(ts.version).update(path).update(source).digest('hex');
  },
};
