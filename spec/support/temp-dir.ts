/** Test helper: a fresh `rxrest-<name>-*` folder in the OS temp directory, removed after the spec file's tests. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './until';

/** Creates the folder now and registers its removal in an `afterAll` of the current scope. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rxrest-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Waits (up to 15 s) for `dir` to hold `count` entries, then gives its listing, whatever it holds by then: files are
 * removed after the response has gone, later still on a loaded machine, and the caller's assertion shows what is left.
 */
export async function listingOnce(dir: string, count = 0): Promise<string[]> {
  await until(() => (readdirSync(dir).length === count ? true : undefined), `${count} entries in ${dir}`).catch(
    () => undefined,
  );
  return readdirSync(dir);
}
