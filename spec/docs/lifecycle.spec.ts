// docs/lifecycle.md is drawn from the phase list in the code: the drawing and the table must say what PHASES says.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PHASES, type PhaseDescription } from '../../lib';

const path = join(__dirname, '..', '..', 'docs', 'lifecycle.md');

function drawing(phases: readonly PhaseDescription[]): string {
  return ['```text', phases.map((phase) => phase.name).join(' → '), '```'].join('\n');
}

function table(phases: readonly PhaseDescription[]): string {
  const rows = phases.map((phase) => `| \`${phase.name}\` | ${phase.when} | ${phase.runs} | ${phase.how} |`);
  return ['| phase | when | what runs | how it runs |', '|---|---|---|---|', ...rows].join('\n');
}

/** The text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
function generated(page: string, name: string): string | undefined {
  return new RegExp(`<!-- generated:${name} -->\\n([\\s\\S]*?)\\n<!-- /generated:${name} -->`).exec(page)?.[1];
}

function write(page: string): string {
  return page
    .replace(
      /(<!-- generated:phases-drawing -->\n)[\s\S]*?(\n<!-- \/generated:phases-drawing -->)/,
      `$1${drawing(PHASES)}$2`,
    )
    .replace(/(<!-- generated:phases -->\n)[\s\S]*?(\n<!-- \/generated:phases -->)/, `$1${table(PHASES)}$2`);
}

describe('docs/lifecycle.md', () => {
  // WRITE_DOCS=1 redraws the page's generated parts from the code (then this spec checks them as usual).
  if (process.env.WRITE_DOCS) writeFileSync(path, write(readFileSync(path, 'utf8')));
  const page = readFileSync(path, 'utf8');

  it('draws the phases in the order the code runs them', () => {
    expect(generated(page, 'phases-drawing')).toBe(drawing(PHASES));
  });

  it('describes each phase as the phase list in the code does', () => {
    expect(generated(page, 'phases')).toBe(table(PHASES));
  });

  it('would catch a page whose phases drifted from the code', () => {
    const swapped = [PHASES[1], PHASES[0], ...PHASES.slice(2)];
    expect(drawing(swapped)).not.toBe(generated(page, 'phases-drawing'));
    expect(table(PHASES.slice(1))).not.toBe(generated(page, 'phases'));
  });

  it('names every phase in the code, and no other, in the feature contract page', () => {
    const features = readFileSync(join(__dirname, '..', '..', 'docs', 'features.md'), 'utf8');
    for (const phase of PHASES) expect(features).toContain(`\`${phase.name}\``);
  });
});
