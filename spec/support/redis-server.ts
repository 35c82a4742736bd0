// A real redis-server for the specs that need one (Debian's package, installed by .ci/install-tools): started on a
// free port, with no persistence or with an append-only file written before each answer, in a temp folder removed
// afterwards; it can be killed and started again on the same port, as an outage would, with its data or without.
// Once the spec file's `afterAll` stopped it, it cannot start again: a test body still running after its timeout
// would otherwise leave a redis-server behind, and Jest waiting on it for good.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { tempDir } from './temp-dir';

export interface RedisServer {
  /** Its port (0 until first started). */
  readonly port: number;
  readonly url: string;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it: on a free port the first time, on the same one after a kill. */
  start(): Promise<void>;
  /** Deletes what it stored (while it is down): the next start is a Redis that lost its data. */
  wipe(): void;
  /** Stops it answering while its connections stay open (SIGSTOP), as a hung server or a lost network would. */
  freeze(): void;
  /** Lets a frozen server answer again (SIGCONT). */
  thaw(): void;
}

export interface RedisOptions {
  /**
   * Writes every write to an append-only file before answering it, so a kill of the process loses nothing. Not synced
   * to the disk (`appendfsync no`): what was written survives a process killed in the OS's cache, only a machine's crash
   * would lose it, and a spec's speed does not hang on how fast the machine's disk syncs.
   */
  readonly appendOnly?: boolean;
}

/** Whether `port` can be listened on now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port for a redis-server, below Linux's ephemeral range (32768-60999): the servers of other specs listen on port 0
 * and get ports from that range, so none can take this one between the probe and the start, nor while a spec has
 * stopped its Redis to test an outage.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    if (await canListen(port)) return port;
  }
}

/**
 * A redis-server for this spec file: call it at the top level (it registers its folder and its stop in
 * `afterAll`), then `await redis.start()` in a `beforeAll`.
 */
export function redisServer(options: RedisOptions = {}): RedisServer {
  const dir = tempDir('redis');
  let port = 0;
  let child: ChildProcess | undefined;
  let stopped = false;
  const start = async () => {
    if (stopped) throw new Error('This redis-server was stopped with its spec file; it cannot start again');
    port ||= await freePort();
    await new Promise<void>((resolve, reject) => {
      const persistence = options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'no'] : ['--appendonly', 'no'];
      const process = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      process.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      process.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
      process.once('error', (error) =>
        reject(new Error(`redis-server could not start (run .ci/install-tools): ${error.message}`)),
      );
      child = process;
    });
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  afterAll(() => {
    stopped = true;
    return kill();
  });
  return {
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    kill,
    start,
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    wipe: () => {
      for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
    },
  };
}
