// `npm test` starts with .ci/check-tools: on a machine without the real parts the suite drives, it installs them
// when it may, or stops at once with one line naming what is missing and how to install it.
import { spawnSync } from 'node:child_process';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir';
import { SYNC_CHILD_MS } from '../support/until';

const root = join(__dirname, '..', '..');

/** A PATH holding only bash, dirname, an `id` saying "not root", and the given stand-ins for tools. */
function machine(bin: string, tools: readonly string[]): string {
  for (const command of ['bash', 'dirname'])
    symlinkSync(
      spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8', timeout: SYNC_CHILD_MS }).stdout.trim(),
      join(bin, command),
    );
  for (const [name, body] of [['id', 'echo 1000'], ...tools.map((tool) => [tool, 'exit 0'])] as const) {
    writeFileSync(join(bin, name), `#!${join(bin, 'bash')}\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

function check(bin: string) {
  const started = Date.now();
  const result = spawnSync(join(bin, 'bash'), ['.ci/check-tools'], {
    cwd: root,
    env: { PATH: bin },
    encoding: 'utf8',
    timeout: SYNC_CHILD_MS,
  });
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

describe('.ci/check-tools', () => {
  const partial = tempDir('check-tools');
  const full = tempDir('check-tools');

  it('stops at once with one line naming what is missing and the command that installs it, when it may not install', () => {
    const result = check(machine(partial, ['openssl']));
    expect(result.status).toBe(1);
    expect(result.seconds).toBeLessThan(5);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm test needs chromium, redis-server (not found on PATH)');
    expect(lines[0]).toContain('sudo apt-get install -y chromium redis-server');
  });

  it('passes quietly when every tool is there', () => {
    const result = check(machine(full, ['chromium', 'redis-server', 'openssl']));
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});
