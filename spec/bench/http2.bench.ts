/**
 * HTTP/2 benchmark, everything on TLS with a certificate made for the run: 100,000 SSE events and 100,000 NDJSON
 * items from rxrest over HTTP/2 and over HTTP/1.1 (ALPN, the same port), and from a raw `node:http2` server
 * writing the same frames; then `/hello` with many concurrent streams on few connections (h2load from Debian's
 * nghttp2-client when installed, else a small node:http2 load client of the bench's own).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:http2';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../support/certificate';
import { startChildServer } from './child-server';

const ITEMS = 100_000;
const ROUNDS = 5;
const note = (line: string): void => void process.stdout.write(`${line}\n`);

/** Items/s of one stream over HTTP/2 (a fresh session, as a browser tab would open). */
function overHttp2(port: number, path: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const session = connect(`https://127.0.0.1:${port}`, { ca, servername: 'localhost' });
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    let lines = 0;
    stream.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
    });
    stream.on('end', () => {
      session.close();
      // An SSE event ends with a blank line: two newlines an item, one for NDJSON.
      const expected = path.includes('/sse') ? 2 * ITEMS : ITEMS;
      if (lines !== expected) return reject(new Error(`${path}: ${lines} lines, expected ${expected}`));
      resolve(ITEMS / (Number(process.hrtime.bigint() - started) / 1e9));
    });
    stream.on('error', reject);
    stream.end();
  });
}

/** Items/s of one stream over HTTPS/1.1 on the same port. */
function overHttp1(port: number, path: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    request({ host: '127.0.0.1', port, path, ca, servername: 'localhost', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(ITEMS / (Number(process.hrtime.bigint() - started) / 1e9)));
    })
      .on('error', reject)
      .end();
  });
}

/** `/hello` requests a second: h2load's figure, or the bench's own client (4 sessions × 50 streams at a time). */
async function helloRate(port: number, ca: Buffer): Promise<{ rate: number; tool: string }> {
  try {
    const output = execFileSync(
      'h2load',
      ['-n', '100000', '-c', '4', '-m', '50', `https://127.0.0.1:${port}/bench/hello`],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const match = /finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(output);
    if (match) return { rate: Number(match[1]), tool: 'h2load -c 4 -m 50' };
  } catch {
    // No h2load: the bench's own client below.
  }
  const sessions = Array.from({ length: 4 }, () =>
    connect(`https://127.0.0.1:${port}`, { ca, servername: 'localhost' }),
  );
  const deadline = Date.now() + 5000;
  let done = 0;
  const lane = (session: ReturnType<typeof connect>) =>
    new Promise<void>((resolve) => {
      const next = () => {
        if (Date.now() > deadline) return resolve();
        const stream = session.request({ ':path': '/bench/hello' });
        stream.resume();
        stream.on('end', () => {
          done++;
          next();
        });
        stream.end();
      };
      next();
    });
  const started = Date.now();
  await Promise.all(sessions.flatMap((session) => Array.from({ length: 50 }, () => lane(session))));
  sessions.forEach((session) => session.close());
  return { rate: done / ((Date.now() - started) / 1000), tool: 'node:http2 client, 4 sessions × 50 streams' };
}

/** Runs the benchmark and prints its lines; returns the rows. */
export async function runHttp2Bench(): Promise<Record<string, number | string>[]> {
  const directory = mkdtempSync(join(tmpdir(), 'rxrest-bench-tls-'));
  const { certificate, key } = selfSignedCertificate(directory);
  const ca = readFileSync(certificate);
  const [rxrest, rawServer] = await Promise.all([
    startChildServer('h2-stream-server', ['rxrest', certificate, key]),
    startChildServer('h2-stream-server', ['raw', certificate, key]),
  ]);
  const rows: Record<string, number | string>[] = [];
  try {
    note(
      `${ITEMS.toLocaleString('en')} items per stream on TLS, a fresh connection each, best of ${ROUNDS} rounds (each server a child process)`,
    );
    for (const format of ['sse', 'ndjson'] as const) {
      const path = `/bench/${format}?n=${ITEMS}`;
      const runs: Record<string, number[]> = { 'rxrest h2': [], 'rxrest h1': [], 'raw node:http2': [] };
      for (let round = 0; round < ROUNDS; round++) {
        runs['rxrest h2']!.push(await overHttp2(rxrest.port, path, ca));
        runs['rxrest h1']!.push(await overHttp1(rxrest.port, path, ca));
        runs['raw node:http2']!.push(await overHttp2(rawServer.port, path, ca));
      }
      const best = Object.fromEntries(Object.entries(runs).map(([name, rates]) => [name, Math.max(...rates)]));
      note(
        `  ${format.toUpperCase().padEnd(6)} rxrest over HTTP/2 ${Math.round(best['rxrest h2']!).toLocaleString('en')} items/s, over HTTP/1.1 ${Math.round(best['rxrest h1']!).toLocaleString('en')} ` +
          `(h2/h1 ${(best['rxrest h2']! / best['rxrest h1']!).toFixed(2)}), raw node:http2 ${Math.round(best['raw node:http2']!).toLocaleString('en')} (rxrest/raw over h2 ${(best['rxrest h2']! / best['raw node:http2']!).toFixed(2)})`,
      );
      rows.push({
        format,
        rxrestH2: Math.round(best['rxrest h2']!),
        rxrestH1: Math.round(best['rxrest h1']!),
        rawH2: Math.round(best['raw node:http2']!),
      });
    }
    const ours = await helloRate(rxrest.port, ca);
    const theirs = await helloRate(rawServer.port, ca);
    note(
      `  /hello over HTTP/2 (${ours.tool}): rxrest ${Math.round(ours.rate).toLocaleString('en')} req/s, raw node:http2 ${Math.round(theirs.rate).toLocaleString('en')} req/s (${(ours.rate / theirs.rate).toFixed(2)})`,
    );
    rows.push({ format: 'hello', rxrestH2: Math.round(ours.rate), rawH2: Math.round(theirs.rate) });
  } finally {
    await Promise.all([rxrest.stop(), rawServer.stop()]);
    rmSync(directory, { recursive: true, force: true });
  }
  return rows;
}

if (require.main === module) void runHttp2Bench();
