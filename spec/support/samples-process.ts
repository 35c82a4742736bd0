// The samples application in a process of its own (as `npm start` runs it, from the TypeScript sources), for specs
// that need several instances, workers, or a process to kill.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

export interface SamplesProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  /** Resolves with the exit code once the process (the primary, with workers) has exited. */
  readonly exited: Promise<number | null>;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** The pids of its workers (with `framework.http.workers` above 1; Linux). */
  workers(): number[];
  /** Kills it and its workers at once, as a crash of the machine would. */
  crash(): void;
}

/** Starts the samples on a free port with `env` added to this process's environment; resolves once it listens. */
export function startSamples(env: Record<string, string> = {}): Promise<SamplesProcess> {
  const child = spawn(process.execPath, ['-r', './spec/support/register-ts.js', 'samples/main.ts'], {
    cwd: root,
    // A process group of its own, so that a crash takes its workers too.
    detached: true,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', FRAMEWORK_REST_SSE_KEEP_ALIVE: '0', ...env },
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const workers = () => {
    try {
      const listed = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
      return listed ? listed.split(' ').map(Number) : [];
    } catch {
      return [];
    }
  };
  const crash = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, exited, output: () => output, workers, crash });
    });
    child.once('exit', (code) => reject(new Error(`the samples exited with ${code}: ${output}`)));
  });
}
