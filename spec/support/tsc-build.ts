/**
 * Test helper: compiles some of the project's files as a user's `tsc` build does — one program with the types of
 * everything it imports, the compiler options of docs/getting-started.md, the project's own TypeScript — into a
 * folder, next to links to `lib/` and `node_modules/`, so the output loads the same rxrest and packages as the specs.
 * Only the files named are emitted (the library is read for its types, not compiled again), which keeps it to a few
 * seconds.
 */
import { symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..', '..');

/** The compiler options of docs/getting-started.md's tsconfig.json: what a user's build emits. */
const USER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Node20,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  esModuleInterop: true,
  skipLibCheck: true,
};

/**
 * Compiles `files` (paths from the project's root) into `outDir`, failing with the compiler's messages when they do
 * not type-check; returns the path of each file's output, in order.
 */
export function compileWithTsc(files: readonly string[], outDir: string): string[] {
  const paths = files.map((file) => join(root, file));
  const program = ts.createProgram(paths, { ...USER_OPTIONS, rootDir: root, outDir });
  const sources = paths.map((path) => program.getSourceFile(path)!);
  const diagnostics = sources.flatMap((source) => [
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source),
  ]);
  for (const source of sources) {
    const emitted = program.emit(source);
    diagnostics.push(...emitted.diagnostics);
  }
  if (diagnostics.length) {
    const host = {
      getCanonicalFileName: (name: string) => name,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    };
    throw new Error(`tsc failed:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
  symlinkSync(join(root, 'lib'), join(outDir, 'lib'), 'dir');
  symlinkSync(join(root, 'node_modules'), join(outDir, 'node_modules'), 'dir');
  return paths.map((path) => join(outDir, relative(root, path)).replace(/\.ts$/, '.js'));
}
