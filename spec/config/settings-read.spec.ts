// Every setting of the schema is read somewhere in lib/: one parsed and documented but read nowhere (or read under
// another name) would be a row of docs/configuration.md that changes nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeConfiguration } from '../../lib';

const lib = join(__dirname, '..', '..', 'lib');
const SCHEMA = join('config', 'schema.ts');

/** The text of every TypeScript file of lib/ but the schema itself, comments left out (a comment reads nothing). */
function sources(): string[] {
  return readdirSync(lib, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && file !== SCHEMA)
    .map((file) =>
      readFileSync(join(lib, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, ''),
    );
}

describe('the settings of the schema', () => {
  it('are each read in lib/ by their own key', () => {
    const code = sources();
    const unread = describeConfiguration()
      .map(({ key }) => key)
      // The per-category log levels are an open family, read by their shape (log-category-key.ts).
      .filter((key) => !key.includes('"<category>"'))
      .filter((key) => !code.some((text) => text.includes(`'${key}'`)));
    expect(unread).toEqual([]);
  });
});
