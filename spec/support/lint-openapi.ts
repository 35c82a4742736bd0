/**
 * Test helper: lints an OpenAPI document with Redocly's CLI (`@redocly/cli`, a dev dependency) under
 * spec/openapi/redocly.yaml. It runs in a child Node process, offline: telemetry and the update check are off, and
 * it reads nothing but the document and the configuration (checked once in a network namespace with no network).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LintProblem {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly location: readonly { readonly pointer: string }[];
}

const ROOT = join(__dirname, '..', '..');

/** The problems Redocly finds in `document` (written as JSON into `directory` first). */
export function lintOpenApi(document: unknown, directory: string): LintProblem[] {
  const file = join(directory, 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
      'lint',
      file,
      '--config',
      join(ROOT, 'spec', 'openapi', 'redocly.yaml'),
      '--format=json',
    ],
    {
      cwd: directory,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  const start = run.stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly lint printed no report (status ${run.status}): ${run.stderr}`);
  return (JSON.parse(run.stdout.slice(start)) as { problems: LintProblem[] }).problems;
}
