/**
 * Jest global teardown: fails the run when a spec left an `rxrest-*` folder in the OS temp directory, or a browser
 * its own `org.chromium.Chromium.*` folders (a Chromium killed, or run without a folder of its own).
 */
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LEFTOVERS = /^(rxrest-|org\.chromium\.Chromium\.)/;

export default function globalTeardown(): void {
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
