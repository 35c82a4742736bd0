// Every TypeScript block of the README and of docs/ compiles against the library as a user would write it:
// `import ... from 'rxrest'`, each block a module of its own (ESM, so top-level await works).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

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
