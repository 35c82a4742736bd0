// Lets a child Node process run the project's TypeScript sources directly (`node -r ./spec/support/register-ts.js
// samples/main.ts`), transpiled one file at a time with the project's tsconfig, as ts-jest does for the specs.
// Each file's output is kept in node_modules/.cache/rxrest-register-ts, keyed by its path and source, the tsconfig,
// the TypeScript version and this file: the processes the specs start (samples instances, a cluster's workers) then
// load no compiler at all. Transpiling the library took 4 s of CPU in every such process, 30 s of wall time on a
// loaded 2-core machine, past the specs' waits for them to listen.
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const cache = join(root, 'node_modules', '.cache', 'rxrest-register-ts');
const salt = createHash('sha256')
  .update(readFileSync(join(root, 'tsconfig.json')))
  .update(readFileSync(join(root, 'node_modules', 'typescript', 'package.json')))
  .update(readFileSync(__filename))
  .digest('hex');

/** Transpiles one file; the compiler is loaded on the first file the cache does not hold. */
let transpile = (source, fileName) => {
  const ts = require('typescript');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const compilerOptions = {
    ...config.options,
    module: ts.ModuleKind.CommonJS,
    sourceMap: false,
    inlineSourceMap: true,
  };
  transpile = (text, name) => ts.transpileModule(text, { compilerOptions, fileName: name }).outputText;
  return transpile(source, fileName);
};

require.extensions['.ts'] = (module, filename) => {
  const source = readFileSync(filename, 'utf8');
  const cached = join(cache, `${createHash('sha256').update(salt).update(filename).update(source).digest('hex')}.js`);
  let output;
  try {
    output = readFileSync(cached, 'utf8');
  } catch {
    output = transpile(source, filename);
    try {
      // Written whole, then renamed: processes starting together never read half a file.
      mkdirSync(cache, { recursive: true });
      writeFileSync(`${cached}.${process.pid}`, output);
      renameSync(`${cached}.${process.pid}`, cached);
    } catch {
      // A cache that cannot be written only costs time.
    }
  }
  module._compile(output, filename);
};
