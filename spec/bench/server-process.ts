/** Starts a bench server as a child process and reads its CPU time from the OS (/proc/<pid>/stat). */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READY_PREFIX } from './bench-routes';

/** Names of the servers compared, in the order they run within a round. */
export const SERVER_NAMES = ['rxrest', 'hono', 'node'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

const START_TIMEOUT_MS = 15_000;

/** Clock ticks per second of /proc's utime and stime (`getconf CLK_TCK`, 100 on Linux almost everywhere). */
export function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process, in clock ticks; the fields after the command name, which may itself hold spaces. */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so utime (field 14) and stime (field 15) are at 11 and 12.
  return Number(fields[11]) + Number(fields[12]);
}

export interface ServerProcess {
  readonly name: ServerName;
  readonly pid: number;
  readonly port: number;
  /** Starts the child's CPU profiler (written to `profileFile` on stop); resolves once it runs. */
  startProfiling(): Promise<void>;
  /** Ends the child and waits for it to exit (and write its profile). */
  stop(): Promise<void>;
}

/** Resolves with the first stdout line starting with `prefix`; rejects if the child exits or times out first. */
function waitForLine(child: ChildProcess, name: string, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const done = (settle: () => void): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      settle();
    };
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith(prefix));
      if (line !== undefined) done(() => resolve(line.slice(prefix.length)));
    };
    const onExit = (code: number | null): void => done(() => reject(new Error(`${name} server exited with ${code}:\n${output}${errors}`)));
    const timer = setTimeout(() => done(() => reject(new Error(`${name} server did not answer in time:\n${output}${errors}`))), START_TIMEOUT_MS);
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString('utf8')).slice(-4000)));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Starts `servers/<name>-server.js` next to this file; a `profileFile` lets `startProfiling()` write there. */
export async function startServer(name: ServerName, profileFile?: string): Promise<ServerProcess> {
  const script = join(__dirname, 'servers', `${name}-server.js`);
  const env = profileFile === undefined ? process.env : { ...process.env, BENCH_PROFILE_FILE: profileFile };
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'], env });
  // Keep draining output so a chatty server never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  const port = Number(await waitForLine(child, name, READY_PREFIX));
  const exited = new Promise<void>((done) => (child.exitCode === null ? child.once('exit', () => done()) : done()));
  return {
    name,
    pid: child.pid as number,
    port,
    startProfiling: async () => {
      const started = waitForLine(child, name, 'PROFILING');
      child.stdin?.write('profile\n');
      await started;
    },
    stop: async () => {
      if (child.exitCode === null) child.stdin?.end('stop\n');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
