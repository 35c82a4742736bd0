// The client entry runs where fetch runs: what it loads, followed through the JavaScript the compiler emits (so
// type-only imports, which vanish, do not count), reaches no Node built-in and nothing of the server.
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..', '..');

/** Every module the emitted JavaScript of `entry` requires, transitively: project files and packages apart. */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
      },
      fileName: file,
    });
    // Imports compile to require("…"); the modules loaded on first use are required by hand, require('…'), and the
    // optional packages through loadPackage('…') (a name bundlers do not see, but this graph does).
    for (const [, specifier] of outputText.matchAll(/(?:require|loadPackage\)?)\(["']([^"']+)["']\)/g)) {
      if (specifier!.startsWith('.')) visit(`${resolve(dirname(file), specifier!)}.ts`);
      else packages.add(specifier!);
    }
  };
  visit(join(root, entry));
  return { files, packages };
}

describe('the rxrest/client entry', () => {
  const { files, packages } = importGraph('lib/client/index.ts');

  it('loads no Node built-in and only packages that run in browsers', () => {
    expect([...packages].filter((name) => isBuiltin(name))).toEqual([]);
    expect(
      [...packages]
        .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]))
        .filter((name, i, all) => all.indexOf(name) === i)
        .sort(),
      // @opentelemetry/api runs in browsers too; it is required only once an application registered an SDK.
      // secure-json-parse runs in browsers too (it reads a Buffer only where there is one).
    ).toEqual(['@opentelemetry/api', 'date-fns', 'eventsource-parser', 'rxjs', 'secure-json-parse']);
  });

  it('loads nothing of the server: no assembly, pipeline, server, configuration, multipart parsing or stream writers', () => {
    const loaded = [...files].map((file) => relative(join(root, 'lib'), file));
    const folders = new Set(loaded.map((file) => file.split('/')[0]));
    for (const serverSide of [
      'assembly',
      'pipeline',
      'server',
      'config',
      'multipart',
      'routing',
      'health',
      'metrics',
      'openapi',
      'params',
      'execution',
    ])
      expect(folders).not.toContain(serverSide);
    // Of the body and streaming folders, only the Multi type (the safe JSON parsing lives in json/).
    expect(loaded.filter((file) => file.startsWith('body/') || file.startsWith('streaming/')).sort()).toEqual([
      'streaming/multi.ts',
    ]);
    expect(folders).toContain('client');
  });
});
