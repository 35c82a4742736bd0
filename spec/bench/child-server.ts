/** Starts a bench server script as a child process (pinned when it can be) and reads its memory from the OS. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READY_PREFIX } from './bench-routes';
import { MEMORY_PREFIX, SNAPSHOT_PREFIX } from './servers/server-control';

/** How long a server may take to print its port: a compiled one starts in a second or two. */
const START_TIMEOUT_MS = 15_000;

/** `process.memoryUsage()` of a child, read after a full GC when it runs with `--expose-gc`. */
export interface MemoryReading extends NodeJS.MemoryUsage {
  readonly collected: boolean;
}

/** A running child server: its pid, port, and how to stop it (closing its stdin, see server-control). */
export interface ChildServer {
  readonly pid: number;
  readonly port: number;
  /** Its memory after a full GC (see server-control). */
  memory(): Promise<MemoryReading>;
  /** Writes a heap snapshot of it to `file`. */
  snapshot(file: string): Promise<void>;
  stop(): Promise<void>;
}

/** Resident set size of a process, from `VmRSS` in /proc/<pid>/status (the OS's figure, no cooperation needed). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/**
 * How Node runs a script of this folder: the compiled `.js` beside this file (`npm run bench`), or, when this file is
 * itself TypeScript (a spec under Jest), the `.ts` source through the project's loader.
 */
export function scriptArguments(script: string): string[] {
  if (!__filename.endsWith('.ts')) return [join(__dirname, `${script}.js`)];
  return ['-r', join(__dirname, '..', 'support', 'register-ts.js'), join(__dirname, `${script}.ts`)];
}

/**
 * Starts `servers/<script>.js` with `args` and Node's `nodeFlags` (under `taskset -c <cpu>` when `cpu` is given) and waits for
 * the `LISTENING <port>` line it prints, for up to `startTimeoutMs` (a spec's TypeScript server, transpiled on a
 * loaded machine, needs longer than the bench's compiled ones).
 */
export function startChildServer(
  script: string,
  args: readonly string[] = [],
  cpu?: string,
  nodeFlags: readonly string[] = [],
  startTimeoutMs = START_TIMEOUT_MS,
): Promise<ChildServer> {
  const node = [...nodeFlags, ...scriptArguments(join('servers', script)), ...args];
  const child =
    cpu === undefined
      ? spawn(process.execPath, node, { stdio: 'pipe' })
      : spawn('taskset', ['-c', cpu, process.execPath, ...node], { stdio: 'pipe' });
  // The servers' logs when asked (BENCH_SERVER_LOG=1): they say why a measurement went wrong.
  if (process.env.BENCH_SERVER_LOG) child.stderr.pipe(process.stderr);
  else child.stderr.resume();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (): Promise<void> => {
    child.stdin.end('stop\n');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  // Answers to `memory` and `snapshot` come back in the order asked, one line each.
  const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
  const ask = (command: string, prefix: string): Promise<string> =>
    new Promise((resolve, reject) => {
      waiting.push({ prefix, resolve });
      child.stdin.write(`${command}\n`);
      void exited.then(() => reject(new Error(`${script} exited before answering ${command}`)));
    });
  const memory = async () => JSON.parse(await ask('memory', MEMORY_PREFIX)) as MemoryReading;
  const snapshot = async (file: string) => void (await ask(`snapshot ${file}`, SNAPSHOT_PREFIX));
  return new Promise((resolve, reject) => {
    let seen = '';
    let pending = '';
    let started = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in ${startTimeoutMs} ms:\n${seen}`));
    }, startTimeoutMs);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${seen}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const next = waiting[0];
        if (started && next && line.startsWith(next.prefix)) waiting.shift()!.resolve(line.slice(next.prefix.length));
        if (started || !line.startsWith(READY_PREFIX)) {
          if (!started) seen += `${line}\n`;
          continue;
        }
        started = true;
        clearTimeout(timer);
        // With taskset in between, the node process is taskset's exec'd image: the same pid.
        const port = Number(line.slice(READY_PREFIX.length));
        resolve({ pid: child.pid as number, port, memory, snapshot, stop });
      }
    });
  });
}
