// `npm run lint` (dependency-cruiser with .dependency-cruiser.js) sees type-only imports too: a circle or a climb to
// the build folder made only of `import type` fails it. Checked on a small tree of its own, with the project's rules.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir';
import { SYNC_CHILD_MS } from '../support/until';

const root = join(__dirname, '..', '..');

const projects = [tempDir('dependency-rules'), tempDir('dependency-rules'), tempDir('dependency-rules')];

function lint(files: Record<string, string>): { status: number | null; output: string } {
  const project = projects.pop()!;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(project, path, '..'), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  copyFileSync(join(root, '.dependency-cruiser.js'), join(project, '.dependency-cruiser.js'));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }),
  );
  const cli = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const result = spawnSync(process.execPath, [cli, 'lib', '--config', '.dependency-cruiser.js'], {
    cwd: project,
    encoding: 'utf8',
    timeout: SYNC_CHILD_MS,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the import rules', () => {
  it('fail on a circle made of type-only imports', () => {
    const result = lint({
      'lib/streaming/pump.ts':
        "import type { Settings } from './settings';\nexport interface Pump { readonly settings: Settings }\n",
      'lib/streaming/settings.ts':
        "import type { Pump } from './pump';\nexport interface Settings { readonly pump?: Pump }\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('no-circular');
  });

  it('fail on a type-only import of the build folder from below it', () => {
    const result = lint({
      'lib/assembly/discover.ts': 'export interface Unit { readonly type: Function }\n',
      'lib/links/link-stage.ts':
        "import type { Unit } from '../assembly/discover';\nexport const units: Unit[] = [];\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('assembly-is-the-top');
  });

  it('pass a tree that keeps them', () => {
    const result = lint({
      'lib/metadata/unit.ts': 'export interface Unit { readonly type: Function }\n',
      'lib/links/link-stage.ts': "import type { Unit } from '../metadata/unit';\nexport const units: Unit[] = [];\n",
    });
    expect(result.output).toContain('no dependency violations');
    expect(result.status).toBe(0);
  });
});
