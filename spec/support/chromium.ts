// Test helper: headless Chromium loads a page and gives back its DOM once the page's scripts are done (virtual time),
// and a local server that serves one page from its own origin.
import { execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const HEADLESS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** The DOM of `url` after its scripts ran (up to 10 s of virtual time). */
export function browse(url: string): Promise<string> {
  const flags = [...HEADLESS, '--virtual-time-budget=10000', '--dump-dom', url];
  return new Promise((resolve, reject) =>
    execFile('chromium', flags, { encoding: 'utf8', timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

/** What a page's script wrote into `data-result` on its body. */
export const resultOf = (dom: string): string | undefined =>
  /data-result="([^"]*)"/.exec(dom)?.[1]?.replace(/&quot;/g, '"');

/** Serves `html` at every path of a local port: a page of an origin of its own. */
export async function pageServer(html: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
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
  const browser = spawn('chromium', [...HEADLESS, '--remote-debugging-port=0', `${origin}/${query}`], {
    stdio: 'ignore',
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      reported,
      new Promise<string>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the page reported nothing within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    browser.kill('SIGKILL');
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
