// `npm publish` runs .ci/check-publish.js first: a package without its public address (repository, homepage, bugs)
// would reach the registry with a README whose links into docs/ lead nowhere, so it is refused, naming what is missing.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir';
import { SYNC_CHILD_MS } from '../support/until';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const dir = tempDir('check-publish');

function check(fields: Record<string, unknown>) {
  const path = join(dir, `package-${Object.keys(fields).join('-') || 'bare'}.json`);
  const { repository, homepage, bugs, ...rest } = manifest;
  void [repository, homepage, bugs];
  writeFileSync(path, JSON.stringify({ ...rest, ...fields }));
  return spawnSync(process.execPath, [join(root, '.ci', 'check-publish.js'), path], {
    encoding: 'utf8',
    timeout: SYNC_CHILD_MS,
  });
}

describe('.ci/check-publish.js', () => {
  it('is what npm publish runs first', () => {
    expect((manifest.scripts as Record<string, string>).prepublishOnly).toBe('node .ci/check-publish.js');
  });

  it('refuses a package without its public address, naming each missing field', () => {
    const bare = check({});
    expect(bare.status).toBe(1);
    expect(bare.stderr).toContain('package.json needs repository, homepage, bugs');
    const partial = check({ repository: { type: 'git', url: 'git+https://example.org/rxrest.git' } });
    expect(partial.status).toBe(1);
    expect(partial.stderr).toContain('package.json needs homepage, bugs');
  });

  it('lets a package with all three through', () => {
    const complete = check({
      repository: { type: 'git', url: 'git+https://example.org/rxrest.git' },
      homepage: 'https://example.org/rxrest#readme',
      bugs: { url: 'https://example.org/rxrest/issues' },
    });
    expect([complete.status, complete.stderr]).toEqual([0, '']);
  });
});
