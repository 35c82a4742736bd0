// framework.http.workers over real processes: a program (programs/cluster-app.ts) run with 2 workers, as a user
// would run theirs. Both workers answer on the one port; a worker killed is replaced with a log line while the
// port keeps answering; SIGTERM ends the workers' SSE streams cleanly and the primary exits 0; workers that
// cannot start fail the start instead of being restarted for ever.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect, type ClientHttp2Session } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { restartDelay } from '../../lib/server/workers';
import { selfSignedCertificate } from '../support/certificate';
import { childPids } from '../support/process-sockets';
import { tempDir } from '../support/temp-dir';
import { until, within } from '../support/until';

const root = join(__dirname, '..', '..');
/**
 * How long a primary and its two workers may take to listen: about 2 s once spec/support/register-ts.js has cached the
 * transpiled sources, but 20-30 s on a loaded 2-core machine when it has not (each process compiled the library).
 */
const STARTUP_MS = 60_000;
/** A test: the start, and what it does once listening (a few seconds). */
const TEST_MS = STARTUP_MS + 30_000;

interface Program {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  /** Everything the program wrote to stdout and stderr so far. */
  output(): string;
}

function run(env: Record<string, string>): Program {
  const child = spawn(
    process.execPath,
    ['-r', './spec/support/register-ts.js', 'spec/server/programs/cluster-app.ts'],
    {
      cwd: root,
      env: { ...process.env, FRAMEWORK_HTTP_WORKERS: '2', ...env },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

function listening(program: Program): Promise<string> {
  return until(
    () => /listening on (http:\/\/\S+) as primary of 2/.exec(program.output())?.[1],
    `the program to listen:\n${program.output()}`,
    STARTUP_MS,
  );
}

/** GET on a fresh connection (so the primary hands each one to the next worker). */
function text(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('timeout', () => reject(new Error(`no answer from ${url} in 5 s`)))
      .on('error', reject);
  });
}

/** GET /who on an HTTP/2 session: the pid of the worker serving it. */
function ask(session: ClientHttp2Session): Promise<string> {
  const answer = new Promise<string>((resolve, reject) => {
    const stream = session.request({ ':path': '/who' });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve(body));
    stream.on('error', reject);
    stream.end();
  });
  return within(answer, 'the answer to GET /who over HTTP/2');
}

async function answeringPids(url: string, requests: number): Promise<Set<string>> {
  const pids = new Set<string>();
  for (let index = 0; index < requests; index++) pids.add((await text(`${url}/who`)).body);
  return pids;
}

describe('framework.http.workers', () => {
  let program: Program | undefined;
  afterEach(() => program?.child.kill('SIGKILL'));

  it(
    'serves one port from every worker, and replaces a worker that dies while the port keeps answering',
    async () => {
      program = run({});
      const url = await listening(program);
      const primary = program.child.pid ?? 0;
      const workers = childPids(primary);
      expect(workers).toHaveLength(2);
      expect(await answeringPids(url, 20)).toEqual(new Set(workers.map(String)));

      process.kill(workers[0], 'SIGKILL');
      const died = new RegExp(`Worker ${workers[0]} exited with signal SIGKILL; starting a new one in 100 ms`);
      // Once the primary knows (a connection handed to a worker in the instant it dies is lost: node:cluster's
      // round robin), the other worker takes every connection while the new one starts.
      await until(() => (died.test(program?.output() ?? '') ? true : undefined), 'the log line of the death');
      const during = await Promise.all(Array.from({ length: 10 }, () => text(`${url}/who`)));
      expect(during.map((answer) => answer.status)).toEqual(Array(10).fill(200));

      const replaced = await until(() => {
        const now = childPids(primary);
        return now.length === 2 && !now.includes(workers[0]) ? now : undefined;
      }, 'a new worker');
      expect(replaced).toContain(workers[1]);
      await until(
        async () => ((await answeringPids(url, 6)).size === 2 ? true : undefined),
        'the new worker to answer',
      );
    },
    TEST_MS,
  );

  it(
    'ends SSE streams of every worker cleanly on SIGTERM, and the primary and workers exit with code 0',
    async () => {
      // A shutdown timeout far above the bound below: waiting for it cannot pass, however slow the machine.
      program = run({ FRAMEWORK_SHUTDOWN_TIMEOUT: '120s' });
      const url = await listening(program);
      const primary = program.child.pid ?? 0;
      const workers = childPids(primary);
      const streams = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            // Resolved with an object: resolving with the `done` promise itself would wait for the stream's end.
            new Promise<{ done: Promise<{ body: string; complete: boolean }> }>((resolve, reject) => {
              get(`${url}/who/ticks`, { agent: false }, (res) => {
                let body = '';
                res.setEncoding('utf8');
                const done = new Promise<{ body: string; complete: boolean }>((finish) =>
                  res.on('close', () => finish({ body, complete: res.complete })),
                );
                res.once('data', (chunk: string) => {
                  body += chunk;
                  res.on('data', (more: string) => (body += more));
                  resolve({ done });
                });
              }).on('error', reject);
            }),
        ),
      );
      const started = Date.now();
      program.child.kill('SIGTERM');
      const results = await Promise.all(streams.map((stream) => stream.done));
      expect(await within(program.exited, 'the program to exit')).toBe(0);
      // At once, not at the end of the 120 s shutdown timeout the streams would otherwise hold the workers to: 25 s
      // leaves room for three processes exiting on a loaded machine.
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(results.filter((result) => result.complete && result.body.endsWith('retry:1000\n\n'))).toHaveLength(20);
      for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    },
    TEST_MS,
  );

  it(
    'fails the start, exit code 1, when the workers cannot start (no restart loop)',
    async () => {
      program = run({ FAIL_WORKERS: '1' });
      expect(await within(program.exited, 'the program to exit')).toBe(1);
      expect(program.output()).toContain('this worker cannot start');
      expect(program.output()).toMatch(/Worker \d+ exited with code 1 before listening/);
    },
    TEST_MS,
  );
});

describe('framework.http.workers with TLS', () => {
  const certificate = selfSignedCertificate(tempDir('workers-tls'));
  let program: Program | undefined;
  afterEach(() => program?.child.kill('SIGKILL'));

  it(
    'serves HTTPS and HTTP/2 from every worker, the primary naming the TLS URL',
    async () => {
      program = run({
        FRAMEWORK_HTTP_SSL_CERTIFICATE_FILE: certificate.certificate,
        FRAMEWORK_HTTP_SSL_CERTIFICATE_KEY_FILE: certificate.key,
        FRAMEWORK_HTTP_SSL_PORT: '0',
      });
      const url = await until(
        () => /listening on (https:\/\/\S+) as primary of 2/.exec(program?.output() ?? '')?.[1],
        'the program to listen over TLS',
        STARTUP_MS,
      );
      const workers = childPids(program.child.pid ?? 0);
      const pids = new Set<string>();
      for (let attempt = 0; attempt < 20 && pids.size < 2; attempt++) {
        // A new HTTP/2 session each time: the primary hands each connection to the next worker.
        const session = connect(url, { ca: readFileSync(certificate.certificate) });
        const pid = await ask(session);
        expect(session.alpnProtocol).toBe('h2');
        session.close();
        pids.add(pid);
      }
      expect(pids).toEqual(new Set(workers.map(String)));
      program.child.kill('SIGTERM');
      expect(await within(program.exited, 'the program to exit')).toBe(0);
    },
    TEST_MS,
  );
});

describe('SIGHUP to the primary of workers with TLS', () => {
  const directory = tempDir('workers-sighup');
  let program: Program | undefined;
  afterEach(() => program?.child.kill('SIGKILL'));

  /** A new HTTP/2 session (the primary hands it to the next worker): the worker's pid and the certificate it showed. */
  async function session(url: string): Promise<{ pid: string; fingerprint: string; session: ClientHttp2Session }> {
    const opened = connect(url, { rejectUnauthorized: false });
    const pid = await ask(opened);
    return {
      pid,
      fingerprint: (opened.socket as unknown as TLSSocket).getPeerCertificate().fingerprint256,
      session: opened,
    };
  }

  /** A session on each of the two workers (others opened on the way are closed). */
  async function onEveryWorker(
    url: string,
  ): Promise<Map<string, { fingerprint: string; session: ClientHttp2Session }>> {
    const byPid = new Map<string, { fingerprint: string; session: ClientHttp2Session }>();
    for (let attempt = 0; attempt < 20 && byPid.size < 2; attempt++) {
      const opened = await session(url);
      if (byPid.has(opened.pid)) opened.session.close();
      else byPid.set(opened.pid, opened);
    }
    return byPid;
  }

  it(
    'survives and passes it on: every worker reloads its certificate, open sessions keep the first one',
    async () => {
      const fingerprint = (file: string) => new X509Certificate(readFileSync(file)).fingerprint256;
      const first = selfSignedCertificate(directory, 'first');
      const live = { certificate: join(directory, 'live.cert.pem'), key: join(directory, 'live.key.pem') };
      copyFileSync(first.certificate, live.certificate);
      copyFileSync(first.key, live.key);
      program = run({
        FRAMEWORK_HTTP_SSL_CERTIFICATE_FILE: live.certificate,
        FRAMEWORK_HTTP_SSL_CERTIFICATE_KEY_FILE: live.key,
        FRAMEWORK_HTTP_SSL_PORT: '0',
      });
      const url = await until(
        () => /listening on (https:\/\/\S+) as primary of 2/.exec(program?.output() ?? '')?.[1],
        'the program to listen over TLS',
        STARTUP_MS,
      );
      const workers = new Set(childPids(program.child.pid ?? 0).map(String));
      const before = await onEveryWorker(url);
      expect(new Set(before.keys())).toEqual(workers);

      const second = selfSignedCertificate(directory, 'second');
      copyFileSync(second.certificate, live.certificate);
      copyFileSync(second.key, live.key);
      program.child.kill('SIGHUP');
      await until(
        () => (program!.output().match(/TLS certificate reloaded/g)?.length ?? 0) >= 2 || undefined,
        `both workers to reload:\n${program.output()}`,
      );

      expect(program.child.exitCode).toBeNull();
      expect(new Set(childPids(program.child.pid ?? 0).map(String))).toEqual(workers);
      const after = await onEveryWorker(url);
      expect(new Set(after.keys())).toEqual(workers);
      for (const [pid, opened] of before) {
        expect(opened.fingerprint).toBe(fingerprint(first.certificate));
        expect(await ask(opened.session)).toBe(pid);
      }
      for (const opened of after.values()) expect(opened.fingerprint).toBe(fingerprint(second.certificate));
      for (const opened of [...before.values(), ...after.values()]) opened.session.close();
      program.child.kill('SIGTERM');
      expect(await within(program.exited, 'the program to exit')).toBe(0);
    },
    TEST_MS,
  );

  it(
    'keeps a plain multi-worker service answering after SIGHUP',
    async () => {
      program = run({});
      const url = await listening(program);
      program.child.kill('SIGHUP');
      await until(
        () => /SIGHUP received: passed on to 2 workers/.test(program!.output()) || undefined,
        'the primary to pass SIGHUP on',
      );
      expect((await text(`${url}/who`)).status).toBe(200);
      expect(program.child.exitCode).toBeNull();
      program.child.kill('SIGTERM');
      expect(await within(program.exited, 'the program to exit')).toBe(0);
    },
    TEST_MS,
  );
});

describe('restartDelay', () => {
  it('waits 100 ms after a first death, doubling for each death in a row up to 10 s', () => {
    expect([1, 2, 3, 4, 8, 20].map(restartDelay)).toEqual([100, 200, 400, 800, 10_000, 10_000]);
  });
});
