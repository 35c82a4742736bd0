// The README and docs/ stay true to the code: commands, error codes, settings, exports, log categories, links.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as lib from '../../lib';
import { describeConfiguration, ErrorCodes, LOG_CATEGORIES } from '../../lib';
import { PARTS } from '../bench/bench-parts';

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
const everything = [readme, ...pages.map((page) => read(join('docs', page)))].join('\n');

/** The settings table, made from the schema of settings' own documentation. */
function settingsTable(): string {
  const rows = describeConfiguration().map(
    (row) => `| \`${row.key}\` | ${row.default === undefined ? '—' : `\`${row.default}\``} | ${row.description} |`,
  );
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
    const links = [...everything.matchAll(/\]\(((?:docs\/|\.\.\/|samples\/|[a-z-]+\.md)[^)#]*)\)/g)].map(
      (match) => match[1],
    );
    const missing = links.filter((link) => !existsSync(join(root, link)) && !existsSync(join(root, 'docs', link)));
    expect(missing).toEqual([]);
  });
});

describe('docs/', () => {
  it('has one page per topic', () => {
    for (const page of [
      'getting-started',
      'resources',
      'parameters',
      'filters',
      'streaming',
      'errors',
      'configuration',
      'multipart',
      'http',
      'links',
      'testing',
      'deploying',
      'benchmarks',
      'coming-from-nestjs',
      'coming-from-quarkus',
    ]) {
      expect(pages).toContain(`${page}.md`);
    }
  });

  it('lists every error code with its status on the errors page', () => {
    const errors = read('docs/errors.md');
    for (const [code, { status }] of Object.entries(ErrorCodes))
      expect(errors).toContain(`| \`${code}\` | ${status} |`);
  });

  it('shows the settings table exactly as the schema of settings documents it (WRITE_DOCS=1 rewrites it)', () => {
    const page = read('docs/configuration.md');
    if (process.env.WRITE_DOCS === '1')
      writeFileSync(
        join(root, 'docs/configuration.md'),
        page.replace(GENERATED, (_, open: string, _old: string, close: string) => open + settingsTable() + close),
      );
    expect(GENERATED.exec(read('docs/configuration.md'))?.[2]).toBe(settingsTable());
  });

  it('names every value the public API exports', () => {
    const missing = Object.keys(lib).filter((name) => !new RegExp(`\\b${name}\\b`).test(everything));
    expect(missing).toEqual([]);
  });

  it('names every log category', () => {
    for (const category of Object.keys(LOG_CATEGORIES))
      expect(read('docs/configuration.md')).toContain(`\`${category}\``);
  });

  it('lists every category the library logs under', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
      );
    const used = new Set(
      files('lib').flatMap((file) =>
        [...read(file).matchAll(/getLogger\('(rxrest[\w.-]*)'\)/g)].map((match) => match[1]!),
      ),
    );
    expect([...used].filter((category) => !(category in LOG_CATEGORIES))).toEqual([]);
  });
});

interface Section {
  readonly heading: string;
  readonly body: string;
}

/** A page's `##` sections, each with its text up to the next one (its `###` subsections included). */
function sectionsOf(text: string): Section[] {
  const sections: { heading: string; lines: string[] }[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && line.startsWith('## ')) sections.push({ heading: line.slice(3).trim(), lines: [] });
    else sections.at(-1)?.lines.push(line);
  }
  return sections.map(({ heading, lines }) => ({ heading, body: lines.join('\n') }));
}

const BENCH_COMMAND = /npm run bench -- --only=([\w-]+)/g;
const benchPartsNamed = (body: string): string[] => [...body.matchAll(BENCH_COMMAND)].map((match) => match[1]!);

/**
 * The sections of a page that teach without an example: every section has a compiled one (a ```ts block, which
 * the snippets spec compiles), except a section of figures, which names the `npm run bench -- --only=<part>` that
 * measures them instead. (The getting-started steps are shell commands and files that a spec runs word for word.)
 */
function sectionsWithoutExample(text: string): string[] {
  return sectionsOf(text)
    .filter(({ body }) => !/^```ts$/m.test(body) && benchPartsNamed(body).length === 0)
    .map(({ heading }) => heading);
}

describe('the structure of docs/', () => {
  it('gives every page sections a reader can link to', () => {
    const thin = pages.filter((page) => sectionsOf(read(join('docs', page))).length < 2);
    expect(thin).toEqual([]);
  });

  it('teaches every section with a compiled example, or names the benchmark behind its figures', () => {
    const missing = pages
      .filter((page) => page !== 'getting-started.md')
      .flatMap((page) => sectionsWithoutExample(read(join('docs', page))).map((heading) => `${page}: ## ${heading}`));
    expect(missing).toEqual([]);
  });

  it('gives every getting-started step a block that its spec runs', () => {
    const bare = sectionsOf(read('docs/getting-started.md')).filter(({ body }) => !/^```(sh|ts|json)$/m.test(body));
    expect(bare.map(({ heading }) => heading)).toEqual([]);
  });

  it('names, on the benchmarks page, the command of each section and every part the bench has', () => {
    const sections = sectionsOf(read('docs/benchmarks.md'));
    expect(sections.filter(({ body }) => benchPartsNamed(body).length === 0).map(({ heading }) => heading)).toEqual([]);
    const named = new Set(sections.flatMap(({ body }) => benchPartsNamed(body)));
    expect(PARTS.filter((part) => !named.has(part))).toEqual([]);
  });

  it('names only bench parts that exist', () => {
    const named = [readme, ...pages.map((page) => read(join('docs', page)))].flatMap(benchPartsNamed);
    expect(named.filter((part) => !(PARTS as readonly string[]).includes(part))).toEqual([]);
  });

  it('catches a section without an example', () => {
    const page = [
      '# A page',
      '## Taught',
      '```ts',
      'const a = 1;',
      '```',
      '## Only told',
      'Prose, a table, and a shell block are not an example:',
      '```sh',
      'npm start',
      '```',
      '```ts',
      '## Not a heading inside a block',
      '```',
      '## Figures',
      'Measured by `npm run bench -- --only=load`.',
      '## Empty',
    ].join('\n');
    expect(sectionsWithoutExample(page)).toEqual(['Empty']);
    expect(sectionsWithoutExample(page.replace('```ts\n## Not', '```text\n## Not'))).toEqual(['Only told', 'Empty']);
  });
});

describe('citations', () => {
  // Documents a reader of the project cannot open: the specification and design notes it was built from, by any name.
  const UNOPENABLE = [
    /\bspec(ification)? ?(§|section )?[0-9]+(\.[0-9]+)*/i,
    /\bDESIGN( ?§|\.md)/,
    /\b(spec|reference) A[0-9]+\b/,
    /\bthe spec's\b/,
  ];

  it('never cites a document a reader cannot open (the specification or design notes, by section or letter) in lib/, spec/, samples/, the README or docs/', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? (entry.name === 'output' ? [] : files(join(dir, entry.name))) : [join(dir, entry.name)],
      );
    const texts = [
      ...files('lib'),
      ...files('spec'),
      ...files('samples'),
      'README.md',
      ...pages.map((page) => join('docs', page)),
    ].filter((file) => /\.(ts|md|js)$/.test(file) && file !== join('spec', 'docs', 'documentation.spec.ts'));
    const cites = texts.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, k) => (UNOPENABLE.some((form) => form.test(line)) ? [`${file}:${k + 1}: ${line.trim()}`] : [])),
    );
    expect(cites).toEqual([]);
  });

  it('catches each form it names', () => {
    for (const line of [
      '(spec 3.7.2)',
      '(spec §2)',
      '(spec section 2)',
      '(DESIGN §5)',
      'see DESIGN.md',
      '(reference A8)',
      '(spec A6)',
      "the spec's Path",
    ]) {
      expect(UNOPENABLE.some((form) => form.test(line))).toBe(true);
    }
    expect(UNOPENABLE.some((form) => form.test('RFC 9110 §14.2, the Java REST specification'))).toBe(false);
  });
});
