/** Test helper: a fresh `rxrest-<name>-*` folder in the OS temp directory, removed after the spec file's tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Creates the folder now and registers its removal in an `afterAll` of the current scope. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rxrest-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
