// The packages only some features need are optional peer dependencies: using such a feature without its package
// installed fails the build with a problem naming the package and the command to install it. Each case runs in a
// fresh process where the package cannot be resolved, as in a project that never installed it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

async function buildWithout(name: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['-r', './spec/support/register-ts.js', 'spec/assembly/programs/missing-package.ts'],
    { cwd: root, env: { ...process.env, MISSING: name } },
  );
  return stdout.trim();
}

describe('optional packages', () => {
  it.each([
    ['prom-client', 'framework.metrics.enabled=true'],
    ['ioredis', 'framework.broadcast.backend=redis-streams'],
    ['swagger-ui-dist', 'framework.openapi.ui.always-include=true'],
    ['ws', '@WebSocketEndpoint'],
    ['date-fns', 'a date pattern (@DateFormat or @JsonFormat)'],
    ['jose', 'framework.security.jwt.*'],
  ])(
    'fail the build naming %s when its feature is used and it is not installed',
    async (name, feature) => {
      const message = await buildWithout(name);
      expect(message).toContain(
        `the package ${name}: ${feature} needs it, and it is not installed: npm install ${name} (an optional peer dependency of rxrest)`,
      );
    },
    30_000,
  );
});
