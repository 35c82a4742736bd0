// Follows docs/getting-started.md word for word in a temporary folder, against the package as `npm pack`
// makes it from a clean copy of the project, then runs the README's tour against the same install.
// It needs the npm registry (or npm's cache, which `npm ci` has just filled) for the packages the page installs.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../support/temp-dir';
import { SYNC_CHILD_MS } from '../support/until';

const root = join(__dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'getting-started.md'), 'utf8').split('\n');
const work = tempDir('getting-started');
const NPM_FLAGS = '--prefer-offline --no-audit --no-fund';

interface Step {
  readonly kind: 'sh' | 'file';
  readonly path?: string;
  readonly body: string;
}

/** The page's steps in order: shell blocks, and files it names ("`src/main.ts`:" above a block). */
function steps(): Step[] {
  const found: Step[] = [];
  for (let i = 0; i < page.length; i++) {
    const fence = /^```(\w+)$/.exec(page[i]);
    if (!fence) continue;
    const end = page.indexOf('```', i + 1);
    const body = page.slice(i + 1, end).join('\n');
    const path = /^`([\w./-]+)`:$/.exec(page[i - 2] ?? '')?.[1];
    if (fence[1] === 'sh') found.push({ kind: 'sh', body });
    else if (path) found.push({ kind: 'file', path, body });
    i = end;
  }
  return found;
}

/** Packs the project from a copy of its tracked (and untracked, not ignored) files, as a fresh clone would. */
function pack(): { tarball: string; files: string[] } {
  const copy = join(work, 'copy');
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    timeout: SYNC_CHILD_MS,
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: copy,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      // It builds the library (prepack) first: slow on a loaded machine, still ended if it hangs.
      timeout: 2 * SYNC_CHILD_MS,
    }),
  ) as { filename: string; files: { path: string }[] }[];
  return { tarball: join(work, packed.filename), files: packed.files.map((file) => file.path) };
}

/** Runs one shell line as the page means it: `rxrest` is the packed tarball, and npm stays quiet and uses its cache. */
function run(line: string, cwd: string, tarball: string): string {
  let command = line;
  if (/^npm install\b/.test(command)) command = `${command.replace(/(?<=\s)rxrest(?=\s|$)/, tarball)} ${NPM_FLAGS}`;
  return execFileSync('bash', ['-c', command], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 2 * SYNC_CHILD_MS,
  });
}

/** Starts `node dist/main.js` on a free port and resolves with the URL it prints. */
function start(cwd: string): Promise<{ url: string; stop(): void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd,
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`main.js printed no URL: ${output}`)), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`main.js exited with ${code}: ${output}`)));
  });
}

describe('docs/getting-started.md, followed in an empty folder against the packed package', () => {
  let project = work;
  let tarball = '';

  it('has the steps the spec follows', () => {
    expect(steps().map((step) => step.path ?? step.kind)).toEqual([
      'sh',
      'tsconfig.json',
      'src/fruit-resource.ts',
      'src/main.ts',
      'sh',
      'src/fruits.test.ts',
      'sh',
    ]);
  });

  it('creates, builds, serves and tests the project as the page says', async () => {
    const packed = pack();
    tarball = packed.tarball;
    // The package is what a user needs: the compiled library with its types, its documents and docs/; no specs, samples or maps.
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'dist/lib/index.js',
        'dist/lib/index.d.ts',
        'LICENSE',
        'README.md',
        'CHANGELOG.md',
        'package.json',
      ]),
    );
    expect(
      packed.files.filter(
        (file) =>
          !/^dist\/lib\/.+\.(js|d\.ts)$/.test(file) &&
          !/^docs\/[\w-]+\.md$/.test(file) &&
          !['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json'].includes(file),
      ),
    ).toEqual([]);
    // The README's links into docs/ resolve inside the package too (an editor's preview, unpkg, node_modules).
    const readmeLinks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#]+)/g)].map(
      (match) => match[1]!,
    );
    expect(readmeLinks.length).toBeGreaterThan(5);
    expect(readmeLinks.filter((link) => !packed.files.includes(link))).toEqual([]);
    for (const step of steps()) {
      if (step.kind === 'file') {
        mkdirSync(dirname(join(project, step.path!)), { recursive: true });
        writeFileSync(join(project, step.path!), `${step.body}\n`);
        continue;
      }
      for (const line of step.body.split('\n')) {
        const cd = /^mkdir (\S+) && cd \1$/.exec(line);
        if (cd) {
          project = join(project, cd[1]);
          mkdirSync(project);
        } else if (line === 'node dist/main.js') {
          const server = await start(project);
          try {
            expect(await (await fetch(`${server.url}/fruits`)).json()).toEqual([
              { name: 'Apple', description: 'Winter fruit' },
            ]);
            const invalid = await fetch(`${server.url}/fruits`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"name":""}',
            });
            expect(invalid.status).toBe(400);
            expect(await invalid.text()).toContain('"field":"name"');
          } finally {
            server.stop();
          }
        } else {
          const output = run(line, project, tarball);
          if (line.startsWith('node --test')) expect(output).toMatch(/# pass 2\n# fail 0/);
        }
      }
    }
  }, 180_000);

  it("runs the README's tour against the same install", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('```ts\n') + '```ts\n'.length;
    writeFileSync(join(project, 'src', 'tour.mts'), readme.slice(start, readme.indexOf('```', start)));
    run('npx tsc', project, tarball);
    const output = run('node dist/tour.mjs', project, tarball);
    expect(output).toContain("rxrest { greeting: 'Hello, Ada!' }");
    expect(output).toContain('data:{"tick":0}\n\ndata:{"tick":1}\n\ndata:{"tick":2}\n\n');
    expect(output).toContain('{"tick":0}\n{"tick":1}\n{"tick":2}\n');
  }, 60_000);
});
