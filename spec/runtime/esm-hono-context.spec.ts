import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { ROOT } from './support/runtime-server';

// An ES-module application on Node imports Hono's ES build; rxrest, CommonJS, requires Hono's CommonJS build.
describe("Hono's Context in an ES-module application on Node", () => {
  let folder: string;

  beforeAll(async () => {
    // Under the project, so both the application and rxrest find hono in its node_modules.
    await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
    folder = await mkdtemp(join(ROOT, 'node_modules/.cache/rxrest-esm-'));
    // rxrest as its package ships it: CommonJS, requiring its dependencies from node_modules.
    await build({
      entryPoints: [join(ROOT, 'lib/index.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      outfile: join(folder, 'rxrest.cjs'),
      logLevel: 'error',
    });
  }, 60_000);

  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("is injected as the application's own Context class, with the server's bindings", async () => {
    const script = join(folder, 'app.mjs');
    await writeFile(
      script,
      `import { Context as HonoContext } from 'hono';
import { createRequire } from 'node:module';
const rx = createRequire(import.meta.url)('./rxrest.cjs');
// The decorators as a compiler would apply them (plain JavaScript has no decorator syntax on Node).
class WhereResource {
  where(c) {
    return { path: c.req.path, context: c instanceof HonoContext, env: c.env?.name ?? null };
  }
}
rx.Context({ type: HonoContext })(WhereResource.prototype, 'where', 0);
rx.GET(WhereResource.prototype, 'where');
rx.Produces('application/json')(WhereResource.prototype, 'where');
rx.Path('/where')(WhereResource);
const app = rx.RestApplication.build({ classes: [WhereResource] });
const response = await app.fetch(new Request('http://localhost/where'), { name: 'bindings' });
process.stdout.write(JSON.stringify([response.status, await response.json()]));
await app.close();
`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: folder });
    expect(JSON.parse(stdout)).toEqual([200, { path: '/where', context: true, env: 'bindings' }]);
  }, 30_000);
});
