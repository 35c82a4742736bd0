// The samples as a process of their own, stopped by SIGTERM while 200 SSE clients are connected and 50 POSTs are
// half sent: every SSE client gets a retry hint and a complete body, every POST (finished after the signal) its
// answer, and the process exits with code 0 as soon as the slowest POST is answered. The child runs the
// TypeScript sources through spec/support/register-ts.js, so no build is needed.
import { spawn } from 'node:child_process';
import { Agent, get, request } from 'node:http';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const CLIENTS = 200;
const POSTS = 50;
/** The start of the samples: about 2 s from spec/support/register-ts.js's cache, 20-30 s cold on a loaded machine. */
const STARTUP_MS = 60_000;
/** Each step after the start: 200 streams, 50 half-sent POSTs, their ends (about a second, more on a loaded machine). */
const STEP_MS = 20_000;

/** `promise`, or a failure naming `what` after `ms`: a slow step says which it was instead of the whole test timing out. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

interface Opened {
  readonly done: Promise<{ body: string; complete: boolean }>;
}

function open(url: string, agent: Agent): Promise<Opened> {
  return new Promise((resolve, reject) => {
    get(`${url}/streams/ticks?intervalMs=50`, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const done = new Promise<{ body: string; complete: boolean }>((finish) =>
        res.on('close', () => finish({ body, complete: res.complete })),
      );
      res.on('error', () => undefined);
      res.once('data', (chunk: string) => {
        body += chunk;
        res.on('data', (more: string) => (body += more));
        resolve({ done });
      });
    }).on('error', reject);
  });
}

interface HalfSent {
  finish(): void;
  readonly answer: Promise<{ status: number; body: string }>;
}

/**
 * A POST /fruits whose body is half written, resolved once the server is handling it: it answered the request's
 * `Expect: 100-continue`, so it read the headers and dispatched the request (a fixed pause before the signal was not
 * enough on a loaded machine: a request the server had not read yet is no request in flight, its connection closed).
 */
function halfSent(url: string, name: string): Promise<HalfSent> {
  const body = Buffer.from(JSON.stringify({ name, description: 'sent in two halves' }));
  return new Promise((resolve, reject) => {
    let answered: (answer: { status: number; body: string }) => void = () => undefined;
    const answer = new Promise<{ status: number; body: string }>((done) => (answered = done));
    const req = request(
      `${url}/fruits`,
      {
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, Expect: '100-continue' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => answered({ status: res.statusCode ?? 0, body: text }));
      },
    );
    // Before it is half sent the call fails; after, its answer says so (status 0) instead of never coming.
    req.on('error', (error) => (reject(error), answered({ status: 0, body: String(error) })));
    req.on('continue', () =>
      req.write(body.subarray(0, 10), () => resolve({ finish: () => req.end(body.subarray(10)), answer })),
    );
    req.flushHeaders();
  });
}

describe('SIGTERM', () => {
  it(
    `ends ${CLIENTS} SSE streams cleanly with a retry hint, answers ${POSTS} requests in flight, and exits with code 0 in well under a second`,
    async () => {
      const child = spawn(process.execPath, ['-r', './spec/support/register-ts.js', 'samples/main.ts'], {
        cwd: root,
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          FRAMEWORK_REST_SSE_KEEP_ALIVE: '0',
          // Timeouts far above the bound on `took` below: a process that waited for either cannot pass, however slow
          // the machine, and a loaded one cannot fail a process that did not.
          FRAMEWORK_SHUTDOWN_TIMEOUT: '120s',
          FRAMEWORK_HTTP_KEEP_ALIVE_TIMEOUT: '120s',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        const starting = new Promise<string>((resolve, reject) => {
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const match = /listening on (http:\/\/\S+)/.exec(output);
            if (match) resolve(match[1]);
          });
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.once('exit', (code) => reject(new Error(`the samples exited with ${code}: ${output}`)));
        });
        const url = await within(starting, STARTUP_MS, 'the samples listening');
        const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
        const streams = await within(
          Promise.all(Array.from({ length: CLIENTS }, () => open(url, agent))),
          STEP_MS,
          'the streams open',
        );
        const posts = await within(
          Promise.all(Array.from({ length: POSTS }, (_, index) => halfSent(url, `Fruit ${index}`))),
          STEP_MS,
          'the POSTs half sent',
        );
        const started = Date.now();
        child.kill('SIGTERM');
        // The rest of the POSTs' bodies goes once the shutdown has begun (the first stream ended by it), not after a
        // fixed lag: a child slow to see the signal would otherwise get the whole bodies before it, and the test would
        // not test what it says.
        void Promise.race(streams.map((stream) => stream.done)).then(() => posts.forEach((post) => post.finish()));
        const results = await within(Promise.all(streams.map((stream) => stream.done)), STEP_MS, 'the streams ended');
        const answers = await within(Promise.all(posts.map((post) => post.answer)), STEP_MS, 'the POSTs answered');
        const code = await within(exited, STEP_MS, 'the process exited');
        const took = Date.now() - started;
        agent.destroy();
        expect(results.filter((result) => result.complete && result.body.endsWith('retry:1000\n\n'))).toHaveLength(
          CLIENTS,
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(POSTS).fill(200));
        // Each answer is the list of fruits with its own among them.
        answers.forEach((answer, index) => expect(answer.body).toContain(`"name":"Fruit ${index}"`));
        expect(code).toBe(0);
        expect(took).toBeLessThan(15_000);
      } finally {
        child.kill('SIGKILL');
      }
    },
    STARTUP_MS + 5 * STEP_MS,
  );
});
