/**
 * What `tsc -p tsconfig.build.json` writes to `dist/` for one entry point and every project file it imports, in a
 * third of its time: only decorated files need the type checker (their decorator metadata names the parameters'
 * types), and the project's `isolatedModules` makes every other file's output the one `transpileModule` gives.
 * Checked 2026-11-26 against `tsc -p tsconfig.build.json` for samples/runtimes/deno.ts: the same 402 files, byte for
 * byte (source maps aside); 8 s against 24 s at load average 6-8.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const DECORATED = /^\s*@\w/m;

/** Emits `entry` (a path from `root`) and the project files it imports under `outDir`, as `tsc` lays out `dist/`. */
export function emitAsTsc(root: string, entry: string, outDir: string): void {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const options = { ...config.options, outDir, sourceMap: false, declaration: false };
  const program = ts.createProgram([join(root, entry)], options);
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || relative(root, source.fileName).startsWith('node_modules')) continue;
    if (DECORATED.test(source.text)) {
      const { emitSkipped } = program.emit(source);
      if (emitSkipped) throw new Error(`tsc emitted nothing for ${source.fileName}`);
      continue;
    }
    const out = join(outDir, relative(root, source.fileName)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      ts.transpileModule(source.text, { fileName: source.fileName, compilerOptions: options }).outputText,
    );
  }
}
