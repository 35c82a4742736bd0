/**
 * The features that load optional packages or touch the disk (fixtures/features-app.ts), on Bun or Deno over real
 * sockets: bearer JWTs from a local JWKS server, metrics, a multipart upload, static files, and a broadcast topic
 * shared by two servers through a real redis-server. The application is bundled as CommonJS with its packages left
 * to the runtime's module loader (rxrest loads them by name), under the project's node_modules so they resolve.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { redisServer } from '../../support/redis-server';
import { openSse } from '../../support/sse-client';
import { call } from './contract';
import { JwksServer } from './jwks';
import { BIN, launch, ROOT, type RuntimeServer } from './runtime-server';

const STATIC_TEXT = 'a static file, served from disk';

/** An application of fixtures/: its file and the function building it (given the overrides). */
export interface Fixture {
  readonly file: string;
  readonly build: string;
}

const FEATURES: Fixture = { file: 'features-app', build: 'buildFeaturesApp' };

/**
 * Bundles the features application (or `fixture`) with `overrides`, served on Bun or Deno, in a folder of its own
 * made in `folder`; on Deno it may write to the uploads directory only.
 */
export async function startFeatures(
  runtime: 'bun' | 'deno',
  overrides: Record<string, string>,
  folder: string,
  fixture: Fixture = FEATURES,
): Promise<RuntimeServer> {
  const server = await mkdtemp(join(folder, 'server-'));
  const outfile = join(server, 'app.cjs');
  await build({
    stdin: {
      contents: `import { ${fixture.build} } from ${JSON.stringify(join(__dirname, '../fixtures', fixture.file))};
const app = ${fixture.build}(${JSON.stringify(overrides)});
const host = '127.0.0.1';
if (typeof Bun !== 'undefined') console.log('listening on ' + Bun.serve({ port: 0, hostname: host, fetch: app.fetch }).url.href);
else Deno.serve({ port: 0, hostname: host, onListen: ({ port }) => console.log('listening on http://' + host + ':' + port + '/') }, app.fetch);`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    outfile,
    logLevel: 'error',
    absWorkingDir: ROOT,
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
  });
  const uploads = overrides['framework.http.body.uploads-directory']!;
  const args =
    runtime === 'bun'
      ? [outfile]
      : [
          'run',
          '--allow-net',
          `--allow-read=${ROOT}`,
          `--allow-write=${uploads}`,
          // ioredis's `debug` dependency lists the whole environment when it loads (docs/runtimes.md).
          '--allow-env',
          outfile,
        ];
  return launch(runtime, join(BIN, runtime), args, server, server);
}

/** The features' specs on `runtime`: two servers sharing one redis-server. */
export function describeFeatures(runtime: 'bun' | 'deno'): void {
  describe(`optional packages and the disk on ${runtime}`, () => {
    const redis = redisServer();
    const jwks = new JwksServer();
    let folder: string;
    let one: RuntimeServer;
    let two: RuntimeServer;

    beforeAll(async () => {
      await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
      folder = await mkdtemp(join(ROOT, `node_modules/.cache/rxrest-${runtime}-features-`));
      await mkdir(join(folder, 'static'));
      await mkdir(join(folder, 'uploads'));
      await writeFile(join(folder, 'static/hello.txt'), STATIC_TEXT);
      await redis.start();
      const overrides = {
        ...jwks.settings(await jwks.start()),
        'framework.metrics.enabled': 'true',
        'framework.http.static.directory': join(folder, 'static'),
        'framework.http.body.uploads-directory': join(folder, 'uploads'),
        'framework.broadcast.backend': 'redis',
        'framework.broadcast.redis.url': redis.url,
      };
      one = await startFeatures(runtime, overrides, folder);
      two = await startFeatures(runtime, overrides, folder);
    }, 90_000);

    afterAll(async () => {
      await Promise.all([one?.stop(), two?.stop()]);
      await jwks.close();
      await rm(folder, { recursive: true, force: true });
    });

    it('verifies a bearer JWT with jose and refuses a bad one', async () => {
      const token = await jwks.sign('alice', ['user']);
      const answer = await call(`${one.url}/secure/me`, { headers: { authorization: `Bearer ${token}` } });
      expect([answer.status, JSON.parse(answer.body.toString())]).toEqual([200, { name: 'alice', roles: ['user'] }]);
      expect((await call(`${one.url}/secure/me`, { headers: { authorization: 'Bearer x.y.z' } })).status).toBe(401);
    });

    it('serves Prometheus metrics with prom-client', async () => {
      await call(`${one.url}/static/none`);
      const answer = await call(`${one.url}/q/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toMatch(/^http_server_requests_seconds_count\{.*\} \d+/m);
    });

    it('writes a multipart upload to disk with busboy', async () => {
      const form = new FormData();
      form.append('file', new Blob(['twelve bytes']), 'note.txt');
      const answer = await fetch(`${one.url}/features/upload`, { method: 'POST', body: form });
      const made = (await answer.json()) as { name: string; size: number; path: string };
      expect([answer.status, made.name, made.size]).toEqual([200, 'note.txt', 12]);
      expect(made.path.startsWith(join(folder, 'uploads'))).toBe(true);
    });

    it('serves a static file from disk', async () => {
      const answer = await call(`${one.url}/hello.txt`);
      expect([answer.status, answer.body.toString()]).toEqual([200, STATIC_TEXT]);
    });

    it('broadcasts through Redis: published on one server, received on the other', async () => {
      const stream = await openSse(`${two.url}/features/notes`);
      // The subscription reaches Redis after the head: publish until the other server's subscriber has one.
      for (let tries = 0; tries < 50 && stream.events.length === 0; tries++) {
        await call(`${one.url}/features/notes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: `hello ${tries}` }),
        });
        await Promise.race([stream.until((events) => events.length > 0), new Promise((done) => setTimeout(done, 200))]);
      }
      stream.cut();
      expect(JSON.parse(stream.events[0]!.data)).toMatchObject({ text: expect.stringMatching(/^hello \d+$/) });
    });
  });
}
