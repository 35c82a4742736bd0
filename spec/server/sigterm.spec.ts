// The samples as a process of their own, stopped by SIGTERM while 200 SSE clients are connected: every client
// gets a retry hint and a complete body, and the process exits with code 0 at once. The child runs the
// TypeScript sources through spec/support/register-ts.js, so no build is needed.
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const CLIENTS = 200;

interface Opened {
  readonly done: Promise<{ body: string; complete: boolean }>;
}

function open(url: string, agent: Agent): Promise<Opened> {
  return new Promise((resolve, reject) => {
    get(`${url}/streams/ticks?intervalMs=50`, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const done = new Promise<{ body: string; complete: boolean }>((finish) => res.on('close', () => finish({ body, complete: res.complete })));
      res.on('error', () => undefined);
      res.once('data', (chunk: string) => {
        body += chunk;
        res.on('data', (more: string) => (body += more));
        resolve({ done });
      });
    }).on('error', reject);
  });
}

describe('SIGTERM', () => {
  it(`ends ${CLIENTS} SSE streams cleanly with a retry hint and exits with code 0 in well under a second`, async () => {
    const child = spawn(process.execPath, ['-r', './spec/support/register-ts.js', 'samples/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', FRAMEWORK_REST_SSE_KEEP_ALIVE: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]);
        });
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('exit', (code) => reject(new Error(`the samples exited with ${code}: ${output}`)));
      });
      const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
      const streams = await Promise.all(Array.from({ length: CLIENTS }, () => open(url, agent)));
      const started = Date.now();
      child.kill('SIGTERM');
      const results = await Promise.all(streams.map((stream) => stream.done));
      const code = await exited;
      const took = Date.now() - started;
      agent.destroy();
      expect(results.filter((result) => result.complete && result.body.endsWith('retry:1000\n\n'))).toHaveLength(CLIENTS);
      expect(code).toBe(0);
      expect(took).toBeLessThan(1000);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
