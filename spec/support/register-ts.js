// Lets a child Node process run the project's TypeScript sources directly (`node -r ./spec/support/register-ts.js
// samples/main.ts`), transpiled one file at a time with the project's tsconfig, as ts-jest does for the specs.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');

const config = ts.getParsedCommandLineOfConfigFile(
  join(__dirname, '..', '..', 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
);
const compilerOptions = { ...config.options, module: ts.ModuleKind.CommonJS, sourceMap: false, inlineSourceMap: true };

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
