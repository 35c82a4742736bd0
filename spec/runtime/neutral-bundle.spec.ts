import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';

const root = resolve(__dirname, '../..');

/** What a Worker's bundler does: everything in one ES module for a platform that is neither Node nor a browser. */
async function bundle(entry: string, outfile: string): Promise<{ metafile: Metafile; text: string }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    outfile,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
  });
  return { metafile: result.metafile, text: await readFile(outfile, 'utf8') };
}

describe('the rxrest core bundled for a neutral platform', () => {
  let folder: string;
  let outcome: { metafile: Metafile; text: string };
  let outfile: string;
  let lastMessage = '';

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'rxrest-neutral-'));
    const entry = join(folder, 'entry.ts');
    // The entry re-exports the fixture as a user's Worker module would import it.
    await writeFile(
      entry,
      `export { buildNeutralApp } from ${JSON.stringify(join(__dirname, 'fixtures/neutral-app'))};\n`,
    );
    outfile = join(folder, 'app.mjs');
    outcome = await bundle(entry, outfile);
  }, 60_000);

  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('resolves every import without an alias and imports no Node built-in', () => {
    const imports = Object.values(outcome.metafile.inputs).flatMap((input) => input.imports);
    expect(imports.filter((found) => found.path.startsWith('node:'))).toEqual([]);
    // Everything is inside: no import statement left, no require or import() of a name written in the code.
    expect(outcome.text).not.toMatch(/^import\s/m);
    expect(outcome.text).not.toMatch(/\b(?:require|import)\(\s*["'`]/);
  });

  it('answers JSON, SSE, NDJSON and a filter from the bundle', async () => {
    const script = join(folder, 'run.mjs');
    await writeFile(
      script,
      `const { buildNeutralApp } = await import(${JSON.stringify(outfile)});
const app = buildNeutralApp();
const answers = [];
for (const [path, headers] of [['/hello/bundle', {}], ['/hello/events', {}], ['/hello/lines', {}], ['/hello/x', { 'x-blocked': '1' }]]) {
  const response = await app.fetch(new Request('http://localhost' + path, { headers }));
  answers.push([response.status, response.headers.get('content-type'), await response.text()]);
}
await app.close();
try {
  buildNeutralApp({ 'framework.metrics.enabled': true });
  answers.push('built');
} catch (error) {
  answers.push(error.message);
}
process.stdout.write(JSON.stringify(answers));
`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: folder });
    const [json, sse, ndjson, blocked, metrics] = JSON.parse(stdout) as [number, string, string][];
    expect(json).toEqual([200, 'application/json;charset=UTF-8', '{"hello":"bundle"}']);
    expect(sse![1]).toMatch(/^text\/event-stream/);
    expect(sse![2]).toBe('data:1\n\ndata:2\n\ndata:3\n\n');
    expect(ndjson![2]).toBe('{"n":1}\n{"n":2}\n');
    expect(blocked![0]).toBe(403);
    lastMessage = String(metrics);
  }, 30_000);

  it('fails the build of a feature whose optional package the bundle cannot load, naming the runtime', () => {
    // (The same run as above: its last answer is the build with metrics on.)
    expect(lastMessage).toMatch(
      /framework\.metrics\.enabled=true needs it, and Node\.js cannot load it: this bundle has no require\(\)/,
    );
  });
});
