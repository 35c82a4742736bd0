/**
 * Jest global teardown: fails the run when a spec left an `rxrest-*` folder in the OS temp directory, or a browser
 * its own `org.chromium.Chromium.*` folders (a Chromium killed, or run without a folder of its own); and when
 * something a spec left running (a child process, a socket, a timer) still holds Jest 30 s after the run, names
 * what it is and ends the run failed, rather than letting CI wait for it until its own limit.
 */
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LEFTOVERS = /^(rxrest-|org\.chromium\.Chromium\.)/;

const HELD_FOR_MS = 30_000;

/** Ends the process, failed, if it is still running `HELD_FOR_MS` after the run (the timer itself holds nothing). */
function endIfHeld(): void {
  setTimeout(() => {
    const held = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap');
    process.stderr.write(
      `\nJest was still held ${HELD_FOR_MS / 1000} s after the run, by: ${held.join(', ')}.\n` +
        'A spec left it running; run the suite with --detectOpenHandles to find which. Ending the run as failed.\n',
    );
    process.exit(1);
  }, HELD_FOR_MS).unref();
}

export default function globalTeardown(): void {
  endIfHeld();
  const start = (globalThis as { rxrestTestStart?: number }).rxrestTestStart ?? Date.now();
  const left = readdirSync(tmpdir())
    .filter((name) => LEFTOVERS.test(name))
    .filter((name) => statSync(join(tmpdir(), name)).birthtimeMs >= start - 1000);
  if (left.length > 0) {
    throw new Error(
      `The specs left ${left.length} folder(s) in ${tmpdir()}: ${left.join(', ')}. Create them with tempDir() from spec/support/temp-dir.ts, which removes them; run Chromium through spec/support/chromium.ts, which gives it a folder of its own.`,
    );
  }
}
