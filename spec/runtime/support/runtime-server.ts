/**
 * Serves the contract application (fixtures/contract-app.ts) on another runtime for a spec: bundled once with esbuild
 * as a Worker's bundler would, started by the runtime binary the project's dev dependencies install, on port 0. The
 * runtimes a spec file started are stopped after it, and none starts after that: a `beforeAll` that timed out while
 * one was starting would otherwise leave it running through the later spec files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { within } from '../../support/until';

export const ROOT = resolve(__dirname, '../../..');

/** The stop of each runtime this spec file started and did not stop yet. */
const running = new Set<() => Promise<void>>();
let ended = false;
/** Jest's `afterAll` in a spec file; the runtimes bench (spec/bench, run by Node alone) stops what it starts itself. */
const afterFile = (globalThis as { afterAll?: (stop: () => Promise<void>) => void }).afterAll;
afterFile?.(async () => {
  ended = true;
  await Promise.all([...running].map((stopIt) => stopIt()));
});
export const BIN = join(ROOT, 'node_modules/.bin');

/** How a Worker's bundler bundles an application: ESM for a neutral platform, the workerd conditions, no alias. */
export const WORKER_BUNDLE = {
  bundle: true,
  platform: 'neutral',
  format: 'esm',
  conditions: ['workerd', 'worker'],
  mainFields: ['module', 'main'],
  logLevel: 'error',
  absWorkingDir: ROOT,
  tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
} as const satisfies BuildOptions;

/** The compatibility workerd is run with: what docs/runtimes.md asks for (no nodejs_compat). */
export const WORKERD = {
  compatibilityDate: '2026-07-01',
  compatibilityFlags: ['enable_request_signal'],
};

export interface RuntimeServer {
  readonly url: string;
  /** The process started (for workerd, Miniflare's runner: workerd is its child). */
  readonly pid: number;
  readonly folder: string;
  /** What the runtime printed, for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/** How a spec varies the contract's server: workerd's compatibility flags, the application's settings. */
export interface StartOptions {
  /** Another application of fixtures/: its file and the function building it (given the overrides). */
  readonly fixture?: { readonly file: string; readonly build: string };
  readonly compatibilityFlags?: readonly string[];
  /** Code the bundle runs before it builds the application (to take something from the runtime, say). */
  readonly prelude?: string;
  readonly overrides?: Readonly<Record<string, string | number | boolean>>;
  /** On Deno, the handler served instead of `app.fetch`: a function `(request, info, app)`, as JavaScript source. */
  readonly denoHandler?: string;
  /** Bun's own options for the sockets of `Bun.serve` (`backpressureLimit`), beside rxrest's handlers. */
  readonly bunSockets?: Readonly<Record<string, number | boolean>>;
}

/**
 * The contract application (or `options.fixture`) in one ES module, exporting `buildApp()` (with `options.overrides`)
 * and a Worker's default `fetch`.
 */
export async function bundleContract(folder: string, options: StartOptions = {}): Promise<string> {
  const outfile = join(folder, 'app.mjs');
  const { file, build: builder } = options.fixture ?? { file: 'contract-app', build: 'buildContractApp' };
  const fixture = JSON.stringify(join(__dirname, '../fixtures', file));
  await build({
    stdin: {
      contents: `import { ${builder} } from ${fixture};
export { bunWebSocket } from ${JSON.stringify(join(ROOT, 'lib'))};
export const buildApp = () => {
  ${options.prelude ?? ''}
  return ${builder}(${JSON.stringify(options.overrides ?? {})});
};
let app;
// /inside/<path> answers what the application answered <path> inside the runtime (status, headers, body in base64),
// before anything in front of it could change it: Miniflare re-encodes bodies as Cloudflare's front line does, and
// tells the Worker every client takes br and gzip. The inner request's Accept-Encoding comes as x-accept-encoding.
async function inside(request, env, ctx) {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice('/inside'.length);
  const headers = new Headers(request.headers);
  headers.set('accept-encoding', request.headers.get('x-accept-encoding') ?? '');
  const answer = await app.fetch(new Request(url, { method: request.method, headers }), env, ctx);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return Response.json({ status: answer.status, headers: Object.fromEntries(answer.headers), body: btoa(binary) });
}
export default {
  fetch(request, env, ctx) {
    app ??= buildApp();
    const path = new URL(request.url).pathname;
    // What a prelude noted in globalThis.probe while the application served.
    if (path === '/probe') return Response.json(globalThis.probe ?? null);
    return path.startsWith('/inside/') ? inside(request, env, ctx) : app.fetch(request, env, ctx);
  },
};`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    ...WORKER_BUNDLE,
    outfile,
  });
  return outfile;
}

const RUNNERS: Record<'bun' | 'deno' | 'workerd', (options: StartOptions) => string> = {
  bun: (options) => `import { buildApp, bunWebSocket } from './app.mjs';
const app = buildApp();
// An idle timeout of 1 s (10 s by default): a stream quiet for longer must still live.
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout: 1, fetch: app.fetch, websocket: { ...bunWebSocket, ...${JSON.stringify(options.bunSockets ?? {})} } });
console.log('listening on ' + server.url.href);`,
  deno: (options) => `import { buildApp } from './app.mjs';
const app = buildApp();
const handler = ${options.denoHandler ?? 'undefined'};
Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log('listening on http://127.0.0.1:' + port + '/') },
  handler ? (request, info) => handler(request, info, app) : app.fetch);`,
  workerd: (options) => `import { readFileSync } from 'node:fs';
import { Miniflare } from ${JSON.stringify(require.resolve('miniflare'))};
const server = new Miniflare({ modules: true, script: readFileSync(new URL('./app.mjs', import.meta.url), 'utf8'),
  ...${JSON.stringify({ ...WORKERD, ...(options.compatibilityFlags ? { compatibilityFlags: options.compatibilityFlags } : {}) })}, port: 0, host: '127.0.0.1' });
const url = await server.ready;
console.log('listening on ' + url.href);
process.on('SIGTERM', () => server.dispose().then(() => process.exit(0)));`,
};

export type Runtime = keyof typeof RUNNERS;

const COMMANDS: Record<Runtime, (runner: string) => [string, string[]]> = {
  bun: (runner) => [join(BIN, 'bun'), [runner]],
  // Only the variables rxrest reads, and no file but the bundle's folder: what docs/runtimes.md asks for.
  deno: (runner) => [
    join(BIN, 'deno'),
    ['run', '--allow-net', `--allow-read=${join(runner, '..')}`, '--allow-env=FRAMEWORK_*,_PROD_FRAMEWORK_*', runner],
  ],
  workerd: (runner) => [process.execPath, [runner]],
};

/** Starts the contract application on `runtime` and resolves once it listens. */
export async function startOn(runtime: Runtime, options: StartOptions = {}): Promise<RuntimeServer> {
  const folder = await mkdtemp(join(tmpdir(), `rxrest-${runtime}-`));
  await bundleContract(folder, options);
  const runner = join(folder, 'run.mjs');
  await writeFile(runner, RUNNERS[runtime](options));
  const [command, args] = COMMANDS[runtime](runner);
  return launch(runtime, command, args, folder, folder);
}

/**
 * Runs `command` in `cwd` (with `env` added to the environment) until it prints the address it listens on; `folder` is
 * removed when it stops.
 */
export async function launch(
  runtime: string,
  command: string,
  args: readonly string[],
  cwd: string,
  folder: string,
  env: Record<string, string> = {},
): Promise<RuntimeServer> {
  if (ended) {
    await rm(folder, { recursive: true, force: true });
    throw new Error(`This spec file has ended: ${runtime} cannot start again`);
  }
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const stopIt = async () => {
    running.delete(stopIt);
    await stop(child, folder);
  };
  running.add(stopIt);
  let output = '';
  const listening = new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${runtime} did not listen in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/\S+?)\/?\s/.exec(output);
      if (found) {
        clearTimeout(timer);
        done(found[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => fail(new Error(`${runtime} exited with ${code}:\n${output}`)));
  });
  // A runtime that never listens leaves neither its process nor its folder behind.
  const url = await listening.catch(async (error: unknown) => {
    await stopIt();
    throw error;
  });
  return { url, folder, pid: child.pid!, output: () => output, stop: stopIt };
}

async function stop(child: ChildProcess, folder: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await within(exited, 'the runtime to exit once killed');
    clearTimeout(timer);
  }
  await rm(folder, { recursive: true, force: true });
}
