// The samples application in a process of its own (as `npm start` runs it, from the TypeScript sources), for specs
// that need several instances, workers, or a process to kill. Every process a spec file started is killed after it,
// and none starts after that: a test that timed out mid-way would otherwise leave one (with its workers) running
// through every later spec file of an in-band run, and holding Jest open at the end.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bounded, within } from './until';

const root = join(__dirname, '..', '..');

/** How long a start may take: the process compiles the samples from their sources, slower on a loaded machine. */
const START_MS = 60_000;

export interface SamplesProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  /** Resolves with the exit code once the process (the primary, with workers) has exited; fails after 15 s. */
  readonly exited: Promise<number | null>;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** The pids of its workers (with `framework.http.workers` above 1; Linux). */
  workers(): number[];
  /** Kills it and its workers at once, as a crash of the machine would. */
  crash(): void;
}

/** The processes of this spec file not known to have exited, each with its end (killed as a group). */
const running = new Map<ChildProcessWithoutNullStreams, Promise<number | null>>();
let stopped = false;

/** Kills `child`'s process group (its workers with it). */
function killGroup(child: ChildProcessWithoutNullStreams): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

afterAll(async () => {
  stopped = true;
  for (const child of running.keys()) killGroup(child);
  await within(Promise.all(running.values()), 'the samples processes of this spec file to exit once killed');
});

/** Starts the samples on a free port with `env` added to this process's environment; resolves once it listens. */
export function startSamples(env: Record<string, string> = {}): Promise<SamplesProcess> {
  if (stopped) return Promise.reject(new Error('This spec file has ended: its samples processes cannot start again'));
  const child = spawn(process.execPath, ['-r', './spec/support/register-ts.js', 'samples/main.ts'], {
    cwd: root,
    // A process group of its own, so that a crash takes its workers too.
    detached: true,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', FRAMEWORK_REST_SSE_KEEP_ALIVE: '0', ...env },
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  running.set(child, exited);
  void exited.then(() => running.delete(child));
  const workers = () => {
    try {
      const listed = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
      return listed ? listed.split(' ').map(Number) : [];
    } catch {
      return [];
    }
  };
  const started = new Promise<SamplesProcess>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match)
        resolve({
          child,
          url: match[1]!,
          get exited() {
            return bounded(exited, `the samples process ${child.pid} to exit`);
          },
          output: () => output,
          workers,
          crash: () => killGroup(child),
        });
    });
    child.once('exit', (code) => reject(new Error(`the samples exited with ${code}: ${output}`)));
  });
  return within(started, `the samples to listen (env ${JSON.stringify(env)})`, START_MS).catch((error: unknown) => {
    killGroup(child);
    throw error;
  });
}
