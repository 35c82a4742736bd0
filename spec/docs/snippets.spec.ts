// Every TypeScript block of the README and of docs/ compiles against the library as a user would write it:
// `import ... from 'rxrest'`, each block a module of its own (ESM, so top-level await works). A block that shows its
// output (`// → ...` after a `console.log`) also runs, in process, and must print exactly that.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { format } from 'node:util';
import ts from 'typescript';
import { tempDir } from '../support/temp-dir';

const root = join(__dirname, '..', '..');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

interface Snippet {
  readonly document: string;
  readonly line: number;
  readonly code: string;
  /** The file a page tells the reader to write it to (a line "`src/main.ts`:" just above the block). */
  readonly path?: string;
}

/** The ```ts blocks of a Markdown document, with the line each starts on. */
function snippetsOf(document: string): Snippet[] {
  const lines = readFileSync(join(root, document), 'utf8').split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```ts') continue;
    const end = lines.indexOf('```', i + 1);
    const path = /^`([\w./-]+\.ts)`:$/.exec(lines[i - 2] ?? '')?.[1];
    snippets.push({ document, line: i + 2, code: lines.slice(i + 1, end).join('\n'), path });
    i = end;
  }
  return snippets;
}

const snippets = documents.flatMap(snippetsOf);
// Inside the project, so that rxjs, zod and hono resolve from its node_modules; removed afterwards.
const workDir = join(root, 'node_modules', '.cache', `rxrest-snippets-${process.pid}`);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('the TypeScript blocks of README.md and docs/', () => {
  it('are there: every page that shows code has some', () => {
    expect(snippets.length).toBeGreaterThan(10);
  });

  it('all compile against the library', () => {
    mkdirSync(workDir, { recursive: true });
    const files = snippets.map((snippet, k) => {
      // A named file goes where the page says, in a CommonJS project of the page's own (relative imports
      // without extensions); any other block is an ES module of its own (top-level await).
      const project = join(workDir, snippet.document.replace(/[/.]/g, '_'));
      const file = snippet.path
        ? join(project, snippet.path)
        : join(workDir, `${snippet.document.replace(/[/.]/g, '_')}-${snippet.line}-${k}.mts`);
      mkdirSync(dirname(file), { recursive: true });
      if (snippet.path) writeFileSync(join(project, 'package.json'), '{ "type": "commonjs" }');
      writeFileSync(file, snippet.code);
      return { file, snippet };
    });
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    )!;
    const options: ts.CompilerOptions = {
      ...config.options,
      noEmit: true,
      types: ['node'],
      paths: { rxrest: [join(root, 'lib', 'index.ts')], 'rxrest/client': [join(root, 'lib', 'client', 'index.ts')] },
    };
    const program = ts.createProgram(
      files.map(({ file }) => file),
      options,
    );
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file === undefined || diagnostic.file.fileName.startsWith(workDir))
      .map((diagnostic) => {
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        const origin = files.find(({ file }) => file === diagnostic.file?.fileName)?.snippet;
        if (!origin || diagnostic.start === undefined) return message;
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
        return `${origin.document}:${origin.line + line}: ${message}`;
      });
    expect(problems).toEqual([]);
    expect(relative(root, workDir)).toContain('node_modules');
  });
});

/** What a block says it prints: the text after each `// → `, in order. */
function expectedOutput(code: string): string[] {
  return [...code.matchAll(/\/\/ → (.*)$/gm)].map((match) => match[1]!.trim());
}

/**
 * The block as a CommonJS module whose `run()` does what the block does: its imports stay at the top, every other
 * statement moves into an async function (so top-level await works), `export` dropped.
 */
function runnable(code: string): string {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  const imports = source.statements.filter(ts.isImportDeclaration).map((statement) => statement.getText(source));
  const body = source.statements
    .filter((statement) => !ts.isImportDeclaration(statement))
    .map((statement) => {
      const text = statement.getText(source);
      const exported = ts.canHaveModifiers(statement)
        ? ts.getModifiers(statement)?.find((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
        : undefined;
      if (!exported) return text;
      const at = exported.getStart(source) - statement.getStart(source);
      return text.slice(0, at) + text.slice(at + 'export'.length);
    });
  const wrapped = `${imports.join('\n')}\nexport async function run(): Promise<void> {\n${body.join('\n')}\n}\n`;
  return ts.transpileModule(wrapped, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      // As docs/getting-started.md's tsconfig.json: strict changes decorator metadata (`T | undefined` names no type).
      strict: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
      esModuleInterop: true,
    },
  }).outputText;
}

describe('the TypeScript blocks that show their output', () => {
  const shown = snippets.filter((snippet) => expectedOutput(snippet.code).length > 0);
  // A temporary folder of this spec file stands in for the OS one, so what the blocks write there is removed.
  const scratch = tempDir('snippets');

  it('are there', () => {
    expect(shown.length).toBeGreaterThan(10);
  });

  it.each(shown.map((snippet) => [`${snippet.document}:${snippet.line}`, snippet] as const))(
    'print what they say: %s',
    async (_where, snippet) => {
      const printed: string[] = [];
      const modules: Record<string, unknown> = {
        rxrest: require('../../lib'),
        'rxrest/client': require('../../lib/client'),
        'node:os': { ...os, tmpdir: () => scratch },
      };
      const module = { exports: {} as { run?: () => Promise<void> } };
      const load = (name: string): unknown => modules[name] ?? require(name);
      const output = { ...console, log: (...values: unknown[]) => printed.push(format(...values)) };
      new Function('require', 'module', 'exports', 'console', runnable(snippet.code))(
        load,
        module,
        module.exports,
        output,
      );
      await module.exports.run!();
      expect(printed).toEqual(expectedOutput(snippet.code));
    },
    30_000,
  );
});
