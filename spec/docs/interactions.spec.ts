// docs/interactions.md: every row of the interaction table names the spec that proves it, and that spec exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'interactions.md'), 'utf8');

interface Row {
  readonly where: string;
  readonly file: string | undefined;
  readonly test: string | undefined;
}

function rows(text: string): Row[] {
  const table = /<!-- interactions -->\n([\s\S]*?)\n<!-- \/interactions -->/.exec(text)?.[1] ?? '';
  return table
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map((cells) => {
      const proof = /^`([^`]+)` › (.+)$/.exec(cells[3] ?? '');
      return { where: cells[1] ?? '', file: proof?.[1], test: proof?.[2] };
    });
}

/** Whether `file` has a test named `test` (an `it.each` name with `%s` matches by its fixed part). */
function hasTest(file: string, test: string): boolean {
  const source = readFileSync(join(root, file), 'utf8');
  return source.includes(`it('${test}'`) || source.includes(`it("${test}"`);
}

describe('docs/interactions.md', () => {
  const table = rows(page);

  it('has the rows the design names: compression × ranges and tags, security × limits and OpenAPI, CORS × sockets, caps × HTTP/2, expiry × every transport', () => {
    const named = table.map((row) => row.where);
    for (const pair of [
      'compression × Range',
      'compression × ETag',
      'security × rate limits',
      'security × OpenAPI',
      'CORS × WebSocket upgrade',
      'stream caps × HTTP/2',
      'token expiry × SSE',
      'token expiry × WebSocket',
    ])
      expect(named).toContain(pair);
  });

  it('names, for every row, a spec file that exists and holds the test it names', () => {
    const unproven = table
      .filter((row) => !row.file || !row.test || !existsSync(join(root, row.file)) || !hasTest(row.file, row.test))
      .map((row) => row.where);
    expect(unproven).toEqual([]);
  });

  it('would catch a row whose test is gone', () => {
    const broken = page.replace('› never meet:', '› no longer meets:');
    const row = rows(broken).find((candidate) => candidate.where === 'broadcast × two applications')!;
    expect(hasTest(row.file!, row.test!)).toBe(false);
  });
});
