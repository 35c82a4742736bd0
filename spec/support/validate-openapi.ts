/**
 * Test helper: validates an OpenAPI document against the official 3.2 schema with
 * @seriousme/openapi-schema-validator. The package is ES modules only, which Jest's CommonJS run cannot
 * load, so it runs in a child Node process reading the document from stdin.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SYNC_CHILD_MS } from './until';

const SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ ...result, version: validator.version }));
`;

export function validateOpenApi(document: unknown): { valid: boolean; errors?: unknown; version: string } {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: join(__dirname, '..', '..'),
    input: JSON.stringify(document),
    encoding: 'utf8',
    timeout: SYNC_CHILD_MS,
  });
  return JSON.parse(output) as { valid: boolean; errors?: unknown; version: string };
}
