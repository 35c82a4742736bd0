/**
 * Starts the runtimes benchmark's servers: `servers/runtime-bench-app.ts` bundled once with esbuild as a Worker's
 * bundler would (one ES module, platform neutral), then served by each runtime's own server on port 0 — Node through
 * `@hono/node-server`, `Bun.serve`, `Deno.serve`, workerd through Miniflare — with the binaries the project's dev
 * dependencies install. Each server is a child process, kept on the servers' CPU when one is given.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { WORKERD_COMPATIBILITY } from '../../samples/runtimes/workerd';
import { WORKER_BUNDLE } from '../runtime/support/runtime-server';

export const RUNTIMES = ['node', 'bun', 'deno', 'workerd'] as const;
export type BenchRuntime = (typeof RUNTIMES)[number];

/** The project's folder, from the sources or from their compiled copy under dist/. */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const ROOT = projectRoot();
const BIN = join(ROOT, 'node_modules/.bin');

/** Bundles the benchmark's applications into `folder/app.mjs`: `benchFetch(kind)`, and a Worker reading `env.KIND`. */
export async function bundleBenchApps(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'rxrest-runtimes-bench-'));
  const source = JSON.stringify(join(ROOT, 'spec/bench/servers/runtime-bench-app.ts'));
  await build({
    stdin: {
      contents: `import { benchFetch } from ${source};
export { benchFetch };
let fetch;
export default { fetch: (request, env, ctx) => (fetch ??= benchFetch(env.KIND))(request, env, ctx) };`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    ...WORKER_BUNDLE,
    outfile: join(folder, 'app.mjs'),
  });
  return folder;
}

const NODE_SERVER = JSON.stringify(require.resolve('@hono/node-server'));
const MINIFLARE = JSON.stringify(require.resolve('miniflare'));

/** Each runtime's server script, given the kind of application as its first argument; it prints `LISTENING <port>`. */
const RUNNERS: Record<BenchRuntime, string> = {
  node: `import { createRequire } from 'node:module';
import { benchFetch } from './app.mjs';
const { serve } = createRequire(import.meta.url)(${NODE_SERVER});
serve({ fetch: benchFetch(process.argv[2]), port: 0, hostname: '127.0.0.1' }, (info) => console.log('LISTENING ' + info.port));`,
  bun: `import { benchFetch } from './app.mjs';
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: benchFetch(process.argv[2]) });
console.log('LISTENING ' + server.port);`,
  deno: `import { benchFetch } from './app.mjs';
Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log('LISTENING ' + port) }, benchFetch(Deno.args[0]));`,
  workerd: `import { readFileSync } from 'node:fs';
import { Miniflare } from ${MINIFLARE};
const server = new Miniflare({ modules: true, script: readFileSync(new URL('./app.mjs', import.meta.url), 'utf8'),
  ...${JSON.stringify(WORKERD_COMPATIBILITY)}, bindings: { KIND: process.argv[2] }, port: 0, host: '127.0.0.1' });
const url = await server.ready;
console.log('LISTENING ' + url.port);
process.on('SIGTERM', () => server.dispose().then(() => process.exit(0)));`,
};

const COMMANDS: Record<BenchRuntime, (runner: string, kind: string, folder: string) => string[]> = {
  node: (runner, kind) => [process.execPath, runner, kind],
  bun: (runner, kind) => [join(BIN, 'bun'), runner, kind],
  deno: (runner, kind, folder) => [join(BIN, 'deno'), 'run', '--allow-net', `--allow-read=${folder}`, runner, kind],
  workerd: (runner, kind) => [process.execPath, runner, kind],
};

export interface RuntimeServer {
  readonly runtime: BenchRuntime;
  readonly kind: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Serves the bundled application `kind` (`rxrest`, `hono` or `hono-same-work`) on `runtime`; resolves once it listens. */
export async function startRuntimeServer(
  folder: string,
  runtime: BenchRuntime,
  kind: string,
  cpus?: string,
): Promise<RuntimeServer> {
  const runner = join(folder, `run-${runtime}.mjs`);
  await writeFile(runner, RUNNERS[runtime]);
  const command = COMMANDS[runtime](runner, kind, folder);
  const [file, ...args] = cpus === undefined ? command : ['taskset', '-c', cpus, ...command];
  const child = spawn(file!, args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${runtime} ${kind} did not listen in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      const found = /LISTENING (\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        done(Number(found[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => fail(new Error(`${runtime} ${kind} exited with ${code}:\n${output}`)));
  });
  const exited = new Promise<void>((done) => (child.exitCode === null ? child.once('exit', () => done()) : done()));
  return {
    runtime,
    kind,
    port,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
