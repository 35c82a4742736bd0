/** Starts a bench server script as a child process (pinned when it can be) and reads its memory from the OS. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READY_PREFIX } from './bench-routes';

const START_TIMEOUT_MS = 15_000;

/** A running child server: its pid, port, and how to stop it (closing its stdin, see server-control). */
export interface ChildServer {
  readonly pid: number;
  readonly port: number;
  stop(): Promise<void>;
}

/** Resident set size of a process, from `VmRSS` in /proc/<pid>/status (the OS's figure, no cooperation needed). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/**
 * Starts `servers/<script>.js` with `args` and Node's `nodeFlags` (under `taskset -c <cpu>` when `cpu` is given) and waits for
 * the `LISTENING <port>` line it prints.
 */
export function startChildServer(
  script: string,
  args: readonly string[] = [],
  cpu?: string,
  nodeFlags: readonly string[] = [],
): Promise<ChildServer> {
  const node = [...nodeFlags, join(__dirname, 'servers', `${script}.js`), ...args];
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
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith(READY_PREFIX));
      if (line === undefined) return;
      clearTimeout(timer);
      // With taskset in between, the node process is taskset's exec'd image: the same pid.
      resolve({ pid: child.pid as number, port: Number(line.slice(READY_PREFIX.length)), stop });
    });
  });
}
