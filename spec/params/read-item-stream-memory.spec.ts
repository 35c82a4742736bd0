// A 1 GB NDJSON upload through a handler slower than the client: the server reads the socket only as the handler
// asks for items, so the client is held back by TCP and the server's memory stays flat. The server is the ingest
// bench's (its `/bench/slow` endpoint), a process of its own, its RSS read from /proc while the upload runs.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { READY_PREFIX } from '../bench/bench-routes';
import { within } from '../support/until';

const root = join(__dirname, '..', '..');
const TOTAL = 1024 * 1024 * 1024;
/** The handler's pace: ten times slower than loopback can send, so the upload waits on it (about 10 s). */
const RATE = 100 * 1024 * 1024;

function rss(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]) * 1024;
}

describe('a request body of items, pulled at the handler pace', () => {
  it('takes 1 GB of NDJSON through a slow handler with less than 30 MB of RSS growth', async () => {
    // stdin stays open: the bench server stops when it closes.
    const child = spawn(
      process.execPath,
      ['-r', './spec/support/register-ts.js', 'spec/bench/servers/ingest-server.ts', 'rxrest'],
      { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let sampler: NodeJS.Timeout | undefined;
    try {
      const url = await within(
        new Promise<string>((resolve) => {
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const line = output.split('\n').find((candidate) => candidate.startsWith(READY_PREFIX));
            if (line) resolve(`http://127.0.0.1:${line.slice(READY_PREFIX.length)}`);
          });
        }),
        'the ingest server to listen',
        60_000,
      );
      // One line: {"pad":"xxx..."} of 1,024 bytes with its newline; 64 of them per write.
      const line = `{"pad":"${'x'.repeat(1024 - 11)}"}\n`;
      const block = Buffer.from(line.repeat(64));
      const blocks = TOTAL / block.length;
      // Let the server settle (JIT, first allocations) before the baseline.
      await fetch(`${url}/bench/slow?rate=${RATE}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-ndjson' },
        body: line.repeat(10_000),
      });
      const baseline = rss(child.pid!);
      let peak = baseline;
      sampler = setInterval(() => (peak = Math.max(peak, rss(child.pid!))), 50);
      const started = Date.now();
      const answer = await within(
        new Promise<{ count: number }>((resolve, reject) => {
          const req = request(
            `${url}/bench/slow?rate=${RATE}`,
            { method: 'POST', headers: { 'Content-Type': 'application/x-ndjson', 'Content-Length': TOTAL } },
            (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => (body += chunk.toString()));
              res.on('end', () => resolve(JSON.parse(body) as { count: number }));
            },
          );
          req.on('error', reject);
          let sent = 0;
          const write = () => {
            while (sent < blocks) {
              sent++;
              if (!req.write(block)) return void req.once('drain', write);
            }
            req.end();
          };
          write();
        }),
        'the answer to the 1 GB upload',
        100_000,
      );
      clearInterval(sampler);
      const seconds = (Date.now() - started) / 1000;
      expect(answer.count).toBe(TOTAL / 1024);
      // The handler's pace set the time: the upload could not outrun it.
      expect(seconds).toBeGreaterThan((TOTAL / RATE) * 0.9);
      expect(peak - baseline).toBeLessThan(30 * 1024 * 1024);
    } finally {
      // Also when the upload failed: a sampler left running every 50 ms would hold Jest open for good.
      clearInterval(sampler);
      child.kill('SIGKILL');
    }
  }, 120_000);
});
