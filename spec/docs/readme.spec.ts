import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as lib from '../../lib';
import { describeConfiguration, ErrorCodes, LOG_CATEGORIES } from '../../lib';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it('opens with the two commands a newcomer needs', () => {
    const firstBlock = readme.slice(readme.indexOf('```sh'), readme.indexOf('```', readme.indexOf('```sh') + 5));
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm test');
  });

  it('lists every error code with its status', () => {
    for (const [code, { status }] of Object.entries(ErrorCodes)) expect(readme).toContain(`| \`${code}\` | ${status} |`);
  });

  it('documents every configuration key with its default', () => {
    for (const row of describeConfiguration()) {
      expect(readme).toContain(`| \`${row.key}\` | ${row.default === undefined ? '—' : `\`${row.default}\``} |`);
    }
  });

  it('names every value the public API exports', () => {
    const missing = Object.keys(lib).filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
    expect(missing).toEqual([]);
  });

  it('names every log category', () => {
    for (const category of Object.keys(LOG_CATEGORIES)) expect(readme).toContain(`\`${category}\``);
  });
});
