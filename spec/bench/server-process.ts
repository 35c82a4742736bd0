/** Starts a bench server as a child process and reads its CPU time from the OS (/proc/<pid>/stat). */
import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
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
  /** Ends the child and waits for it to exit (so a `--cpu-prof` file is complete). */
  stop(): Promise<void>;
}

function waitForPort(child: ChildProcess, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${name} server did not start in time:\n${output}`)), START_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith(READY_PREFIX));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve(Number(line.slice(READY_PREFIX.length)));
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} server exited with ${code}:\n${output}`));
    });
  });
}

/** Starts `servers/<name>-server.js` next to this file; `nodeArgs` go to node (e.g. `--cpu-prof`). */
export async function startServer(name: ServerName, nodeArgs: readonly string[] = []): Promise<ServerProcess> {
  const script = join(__dirname, 'servers', `${name}-server.js`);
  const child = spawn(process.execPath, [...nodeArgs, script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const port = await waitForPort(child, name);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // Keep draining output so a chatty server never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    name,
    pid: child.pid as number,
    port,
    stop: async () => {
      if (child.exitCode === null) child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
