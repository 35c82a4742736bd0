/**
 * What a bench server child takes from its parent on stdin: `profile` starts the CPU profiler; `memory` answers a
 * `MEMORY <json>` line of `process.memoryUsage()` after a full GC; `snapshot <file>` writes a heap snapshot there and
 * answers `SNAPSHOT`; `stop` or EOF ends it.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { writeHeapSnapshot } from 'node:v8';

/** Sampling interval of the profiler, in µs: finer than `--cpu-prof`'s 1 ms, as a request takes tens of µs. */
const SAMPLING_MICROS = 100;

/** The line prefixes of the answers to `memory` and `snapshot`. */
export const MEMORY_PREFIX = 'MEMORY ';
export const SNAPSHOT_PREFIX = 'SNAPSHOT';

function post(session: Session, method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/**
 * The process's memory once garbage is gone: two full collections (the second frees what the first's finalizers
 * let go), then a turn of the event loop so that nothing the collections scheduled is still pending. Without
 * `--expose-gc` it reads memory as it is, and says so.
 */
function answerMemory(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  setImmediate(() =>
    process.stdout.write(
      `${MEMORY_PREFIX}${JSON.stringify({ ...process.memoryUsage(), collected: gc !== undefined })}\n`,
    ),
  );
}

/**
 * Follows the parent's commands. Profiling starts on request (after the warm-up, so start-up and JIT
 * compilation stay out of it) and is written to `BENCH_PROFILE_FILE` when the child stops.
 */
export function followParent(close: () => void): void {
  let session: Session | undefined;
  const stop = async (): Promise<void> => {
    close();
    const file = process.env.BENCH_PROFILE_FILE;
    if (session && file) {
      const { profile } = (await post(session, 'Profiler.stop')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
    }
    process.exit(0);
  };
  const startProfiling = async (): Promise<void> => {
    session = new Session();
    session.connect();
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: SAMPLING_MICROS });
    await post(session, 'Profiler.start');
    process.stdout.write('PROFILING\n');
  };
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    input += chunk;
    const lines = input.split('\n');
    input = lines.pop() ?? '';
    for (const line of lines) {
      if (line === 'profile') void startProfiling();
      if (line === 'memory') answerMemory();
      if (line.startsWith('snapshot ')) {
        writeHeapSnapshot(line.slice('snapshot '.length));
        process.stdout.write(`${SNAPSHOT_PREFIX}\n`);
      }
      if (line === 'stop') void stop();
    }
  });
  process.stdin.on('end', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
