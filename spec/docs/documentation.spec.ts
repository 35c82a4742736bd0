// The README and docs/ stay true to the code: commands, error codes, settings, exports, log categories, links.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as lib from '../../lib';
import { describeConfiguration, ErrorCodes, LOG_CATEGORIES } from '../../lib';

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
const everything = [readme, ...pages.map((page) => read(join('docs', page)))].join('\n');

/** The settings table, made from the schema of settings' own documentation. */
function settingsTable(): string {
  const rows = describeConfiguration().map((row) => `| \`${row.key}\` | ${row.default === undefined ? '—' : `\`${row.default}\``} | ${row.description} |`);
  return ['| key | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

const GENERATED = /(<!-- generated:settings[^\n]*-->\n)([\s\S]*?)(\n<!-- \/generated:settings -->)/;

describe('README.md', () => {
  it('opens with the two commands a newcomer needs', () => {
    const firstBlock = readme.slice(readme.indexOf('```sh'), readme.indexOf('```', readme.indexOf('```sh') + 5));
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm test');
  });

  it('stays short: at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('links only to pages that exist', () => {
    const links = [...everything.matchAll(/\]\(((?:docs\/|\.\.\/|samples\/|[a-z-]+\.md)[^)#]*)\)/g)].map((match) => match[1]);
    const missing = links.filter((link) => !existsSync(join(root, link)) && !existsSync(join(root, 'docs', link)));
    expect(missing).toEqual([]);
  });
});

describe('docs/', () => {
  it('has one page per topic', () => {
    for (const page of ['getting-started', 'resources', 'parameters', 'filters', 'streaming', 'errors', 'configuration', 'multipart', 'http', 'links', 'testing', 'deploying', 'benchmarks', 'coming-from-nestjs', 'coming-from-quarkus']) {
      expect(pages).toContain(`${page}.md`);
    }
  });

  it('lists every error code with its status on the errors page', () => {
    const errors = read('docs/errors.md');
    for (const [code, { status }] of Object.entries(ErrorCodes)) expect(errors).toContain(`| \`${code}\` | ${status} |`);
  });

  it('shows the settings table exactly as the schema of settings documents it (WRITE_DOCS=1 rewrites it)', () => {
    const page = read('docs/configuration.md');
    if (process.env.WRITE_DOCS === '1') writeFileSync(join(root, 'docs/configuration.md'), page.replace(GENERATED, (_, open: string, _old: string, close: string) => open + settingsTable() + close));
    expect(GENERATED.exec(read('docs/configuration.md'))?.[2]).toBe(settingsTable());
  });

  it('names every value the public API exports', () => {
    const missing = Object.keys(lib).filter((name) => !new RegExp(`\\b${name}\\b`).test(everything));
    expect(missing).toEqual([]);
  });

  it('names every log category', () => {
    for (const category of Object.keys(LOG_CATEGORIES)) expect(read('docs/configuration.md')).toContain(`\`${category}\``);
  });
});

describe('citations', () => {
  it('never cites "spec N.M", a document users cannot open, in lib/, the README or docs/', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
    const cites = [...files('lib'), 'README.md', ...pages.map((page) => join('docs', page))].filter((file) => /\bspec [0-9]+(\.[0-9]+)*/.test(read(file)));
    expect(cites).toEqual([]);
  });
});
