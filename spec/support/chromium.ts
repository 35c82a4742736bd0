// Test helper: headless Chromium, each run in a folder of its own (its profile, and the temp folder it would
// otherwise fill with `org.chromium.Chromium.*` folders, never removed when it is killed), removed once the browser
// and every process it started are gone. It loads a page and gives back its DOM once the page's scripts are done
// (virtual time), or what a page reports; and a local server that serves one page from its own origin. The browsers
// a spec file started are killed after it, and none starts after that: a test that timed out would otherwise leave
// its browser running (for up to its own 60 s limit) into the next spec files, or start one no one kills.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HEADLESS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** The kill of each browser of this spec file still running. */
const running = new Set<() => Promise<void>>();
let stopped = false;
afterAll(async () => {
  stopped = true;
  await Promise.all([...running].map((kill) => kill()));
});

/** A running browser: its standard output so far, its end, and how to kill it with every process it started. */
interface Browser {
  readonly exited: Promise<number | null>;
  stdout(): string;
  /** What it logged (with `--enable-logging=stderr`, the pages' console and Content-Security-Policy reports). */
  stderr(): string;
  kill(): Promise<void>;
}

/**
 * Runs Chromium with `args` (headless) and gives it to `use`; then kills it and its process group, and removes its
 * folder. `TMPDIR` points into that folder, so whatever Chromium keeps there goes with it.
 */
async function withChromium<T>(args: readonly string[], use: (browser: Browser) => Promise<T>): Promise<T> {
  if (stopped) throw new Error('This spec file has ended: its browsers cannot start again');
  const home = mkdtempSync(join(tmpdir(), 'rxrest-chromium-'));
  let output = '';
  let log = '';
  // A process group of its own: its renderers and helpers are killed with it, not left writing into its folder.
  const child = spawn('chromium', [...HEADLESS, `--user-data-dir=${join(home, 'profile')}`, ...args], {
    detached: true,
    env: { ...process.env, TMPDIR: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`Chromium could not start (run .ci/install-tools as root): ${error.message}`)),
    );
    child.once('close', (code) => resolve(code));
  });
  const kill = async () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The whole group is gone already.
    }
    await exited.catch(() => undefined);
  };
  const end = async () => {
    await kill();
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  running.add(end);
  try {
    return await use({ exited, stdout: () => output, stderr: () => log, kill });
  } finally {
    running.delete(end);
    await end();
  }
}

/**
 * Runs Chromium with `args` to its end (at most `timeoutMs`) and resolves with what it printed; rejects when it
 * exits with an error or runs out of time.
 */
export async function runChromium(args: readonly string[], timeoutMs = 60_000): Promise<string> {
  return (await runChromiumLogged(args, timeoutMs)).stdout;
}

/** As runChromium, with what the browser logged beside what it printed. */
export function runChromiumLogged(
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<{ stdout: string; stderr: string }> {
  return withChromium(args, async (browser) => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`Chromium did not finish within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const code = await Promise.race([browser.exited, timedOut]);
      if (code !== 0) throw new Error(`Chromium exited with ${code}`);
      return { stdout: browser.stdout(), stderr: browser.stderr() };
    } finally {
      clearTimeout(timer);
    }
  });
}

/** The DOM of `url` after its scripts ran (up to 10 s of virtual time). */
export function browse(url: string): Promise<string> {
  return runChromium(['--virtual-time-budget=10000', '--dump-dom', url]);
}

/** What a page's script wrote into `data-result` on its body. */
export const resultOf = (dom: string): string | undefined =>
  /data-result="([^"]*)"/.exec(dom)?.[1]?.replace(/&quot;/g, '"');

/** Serves `html` at every path of a local port: a page of an origin of its own. */
export async function pageServer(html: string | (() => string)): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(typeof html === 'string' ? html : html()),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Opens a page of an origin of its own in Chromium, in real time (its virtual clock does not wait for WebSocket
 * traffic), and resolves with what the page's script POSTs to `/result` of its origin; `query` is added to the page's URL.
 */
export async function pageResult(html: string, query = '', timeoutMs = 30_000): Promise<string> {
  let report: (body: string) => void = () => undefined;
  const reported = new Promise<string>((resolve) => (report = resolve));
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => (res.writeHead(204).end(), report(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await withChromium(['--remote-debugging-port=0', `${origin}/${query}`], () =>
      Promise.race([
        reported,
        new Promise<string>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`the page reported nothing within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]),
    );
  } finally {
    clearTimeout(timer);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
