/** `npm run openapi [file]`: writes the samples' OpenAPI document to a file (YAML, or JSON for a `.json` name) for client generators. */
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { buildSamples } from './app';

const file = process.argv[2] ?? 'openapi.yaml';
const document = buildSamples().openapi();
writeFileSync(
  file,
  file.endsWith('.json')
    ? `${JSON.stringify(document, null, 2)}\n`
    : stringify(document, { aliasDuplicateObjects: false }),
);
process.stdout.write(`OpenAPI document written to ${file}\n`);
