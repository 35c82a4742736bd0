/** Starts a bench server as a child process and reads its CPU time from the OS (/proc/<pid>/stat). */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READY_PREFIX } from './bench-routes';

/** Names of the servers compared, in the order they run within a round. */
export const SERVER_NAMES = ['rxrest', 'hono', 'fastify', 'node'] as const;
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

/** The CPUs the server and the load generator are kept on, as `taskset -c` lists. */
export interface CpuPinning {
  readonly server: string;
  readonly load: string;
}

/** Expands a `taskset` CPU list such as `0-3,6` into CPU numbers. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    if (from === undefined || !Number.isInteger(from) || !Number.isInteger(to)) continue;
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/**
 * One CPU for the servers and another for the load generator, from the CPUs this process may use, when
 * `taskset` exists and there are two: on a small machine the OS otherwise moves wrk, the server and its
 * helper threads between the same cores, which makes run-to-run figures swing far more than the
 * frameworks differ. Every server is pinned alike. `undefined` when pinning is not possible.
 */
export function cpuPinning(): CpuPinning | undefined {
  let allowed: number[];
  try {
    // "pid 123's current affinity list: 0,1"
    const output = execFileSync('taskset', ['-cp', String(process.pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    allowed = parseCpuList(output.slice(output.lastIndexOf(':') + 1));
  } catch {
    return undefined;
  }
  const [server, load] = allowed;
  return server === undefined || load === undefined ? undefined : { server: String(server), load: String(load) };
}

export interface ServerProcess {
  readonly name: ServerName;
  readonly pid: number;
  readonly port: number;
  /** Starts the child's CPU profiler (written to `profileFile` on stop); resolves once it runs. */
  startProfiling(): Promise<void>;
  /** Ends the child and waits for it to exit (and write its profile). */
  stop(): Promise<void>;
  /** The last 16 KB the child wrote on stderr (a launcher's report, such as valgrind's summary, once stopped). */
  stderr(): string;
}

/** Resolves with the first stdout line starting with `prefix`; rejects if the child exits or times out first. */
function waitForLine(child: ChildProcess, name: string, prefix: string, timeoutMs = START_TIMEOUT_MS): Promise<string> {
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
    const onExit = (code: number | null): void =>
      done(() => reject(new Error(`${name} server exited with ${code}:\n${output}${errors}`)));
    const timer = setTimeout(
      () => done(() => reject(new Error(`${name} server did not answer in time:\n${output}${errors}`))),
      timeoutMs,
    );
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString('utf8')).slice(-4000)));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** How a server child is started: where it writes its CPU profile, and which CPUs it may run on. */
export interface ServerOptions {
  /** Lets `startProfiling()` write a CPU profile there. */
  readonly profileFile?: string;
  /** A `taskset -c` CPU list (see `cpuPinning`); absent: wherever the OS schedules it. */
  readonly cpus?: string;
  /** A command the server runs under, with its arguments (e.g. valgrind); `cpus` is not applied then. */
  readonly launcher?: readonly string[];
  /** Flags for node itself, before the script. */
  readonly nodeFlags?: readonly string[];
  /** How long the server may take to listen (default 15 s; a launcher such as valgrind needs more). */
  readonly startTimeoutMs?: number;
  /** Environment variables added to the child's. */
  readonly env?: Readonly<Record<string, string>>;
}

const STDERR_KEPT = 16 * 1024;

/** Starts `servers/<name>-server.js` next to this file. */
export async function startServer(name: ServerName, options: ServerOptions = {}): Promise<ServerProcess> {
  const { profileFile, cpus, launcher, nodeFlags = [] } = options;
  const script = join(__dirname, 'servers', `${name}-server.js`);
  const env = {
    ...process.env,
    ...options.env,
    ...(profileFile === undefined ? {} : { BENCH_PROFILE_FILE: profileFile }),
  };
  const node = [process.execPath, ...nodeFlags, script];
  // taskset execs node in its own process, so the child's pid is the server's (its CPU time is read from /proc).
  const [command, ...args] =
    launcher !== undefined ? [...launcher, ...node] : cpus === undefined ? node : ['taskset', '-c', cpus, ...node];
  const child = spawn(command as string, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
  // Keep draining output so a chatty server never blocks on a full pipe.
  let stderr = '';
  child.stdout?.resume();
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT)));
  const port = Number(await waitForLine(child, name, READY_PREFIX, options.startTimeoutMs));
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
    stderr: () => stderr,
  };
}
