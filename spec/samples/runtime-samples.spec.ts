/**
 * The samples as `npm run start:bun`, `start:deno` and `start:workerd` serve them: started, listening, and answering
 * with the settings of samples/application.properties as `npm start` does (its 1 MB body limit, `/beta` disabled) —
 * on workerd, which has no disk, from the file's text bundled with the Worker.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { Miniflare } from 'miniflare';
import ts from 'typescript';
import { bundleWorker, WORKERD_COMPATIBILITY } from '../../samples/runtimes/workerd';
import { BIN, launch, ROOT, type RuntimeServer } from '../runtime/support/runtime-server';
import { emitAsTsc } from '../runtime/support/tsc-emit';

const PROPERTIES = readFileSync(join(ROOT, 'samples/application.properties'), 'utf8');

/** Compiles each TypeScript source as `tsc` would for `npm run start:workerd`: decorators with their metadata. */
const withMetadata: Plugin = {
  name: 'decorator-metadata',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: ts.transpileModule(readFileSync(args.path, 'utf8'), {
        fileName: args.path,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          useDefineForClassFields: false,
        },
      }).outputText,
      loader: 'js',
    }));
  },
};

/** What a client of the samples sees of their settings: a body past the 1 MB limit, and the disabled `/beta`. */
async function settingsSeen(url: string): Promise<{ tooLarge: number; beta: number; fruits: number }> {
  const big = await fetch(`${url}/fruits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x'.repeat(2_000_000) }),
  });
  await big.arrayBuffer();
  const beta = await fetch(`${url}/beta`);
  await beta.arrayBuffer();
  const fruits = await fetch(`${url}/fruits`);
  await fruits.arrayBuffer();
  return { tooLarge: big.status, beta: beta.status, fruits: fruits.status };
}

const EXPECTED = { tooLarge: 413, beta: 404, fruits: 200 };

describe('the samples on workerd (npm run start:workerd)', () => {
  let server: Miniflare;
  let url: string;

  beforeAll(async () => {
    const script = await bundleWorker(join(ROOT, 'samples/runtimes/worker.ts'), PROPERTIES, [withMetadata]);
    server = new Miniflare({ modules: true, script, ...WORKERD_COMPATIBILITY, port: 0, host: '127.0.0.1' });
    url = (await server.ready).href.replace(/\/$/, '');
  }, 60_000);

  afterAll(() => server?.dispose());

  it('answers with the settings of samples/application.properties', async () => {
    expect(await settingsSeen(url)).toEqual(EXPECTED);
  });
});

describe('the samples on Bun (npm run start:bun)', () => {
  let server: RuntimeServer;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rxrest-bun-samples-'));
    const env = { PORT: '0', HOST: '127.0.0.1' };
    server = await launch('bun', join(BIN, 'bun'), ['samples/runtimes/bun.ts'], ROOT, folder, env);
  }, 60_000);

  afterAll(() => server?.stop());

  it('prints where it listens, and answers with the settings of samples/application.properties', async () => {
    expect(server.output()).toMatch(/rxrest samples listening on http:\/\/127\.0\.0\.1:\d+ \(Bun\)/);
    expect(await settingsSeen(server.url)).toEqual(EXPECTED);
  });
});

describe('the samples on Deno (npm run start:deno)', () => {
  let server: RuntimeServer;
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts['start:deno']!;
  const [compile = '', run = ''] = script.split('&&').map((part) => part.trim());

  beforeAll(async () => {
    // The script's own command, with its permissions, run in a folder laid out as the project after its `tsc` step.
    const folder = await mkdtemp(join(tmpdir(), 'rxrest-deno-samples-'));
    emitAsTsc(ROOT, 'samples/runtimes/deno.ts', join(folder, 'dist'));
    await copyFile(join(ROOT, 'package.json'), join(folder, 'package.json'));
    await symlink(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
    await symlink(join(ROOT, 'samples'), join(folder, 'samples'), 'dir');
    const [command, ...args] = run.split(/\s+/);
    const env = { PORT: '0', HOST: '127.0.0.1' };
    server = await launch('deno', join(BIN, command!), args, folder, folder, env);
  }, 60_000);

  afterAll(() => server?.stop());

  it('prints where it listens, and answers with the settings of samples/application.properties', async () => {
    expect([compile, run.split(/\s+/)[0]]).toEqual(['tsc -p tsconfig.build.json', 'deno']);
    expect(server.output()).toMatch(/rxrest samples listening on http:\/\/127\.0\.0\.1:\d+ \(Deno\)/);
    expect(await settingsSeen(server.url)).toEqual(EXPECTED);
  });
});
