// What a plain application loads: none of the packages of features it does not use (OpenAPI's YAML and Swagger UI,
// metrics, Redis, WebSockets, JWTs, rate limits, multipart, the client's and request items' SSE parser, date
// patterns, file types, zod) and not RxJS's whole index, after serving requests of every plain kind; each optional
// package comes with its feature.
// Checked on the list of modules a fresh process loaded, not on a timing.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

interface Loaded {
  readonly statuses: number[];
  readonly packages: string[];
  readonly rxjsIndex: boolean;
}

async function loadedBy(feature: string): Promise<Loaded> {
  const { stdout } = await run(
    process.execPath,
    ['-r', './spec/support/register-ts.js', 'spec/assembly/programs/plain-app.ts'],
    { cwd: root, env: { ...process.env, FEATURE: feature } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Loaded;
}

const OPTIONAL = [
  'yaml',
  'swagger-ui-dist',
  'prom-client',
  '@opentelemetry/api',
  'ioredis',
  'ws',
  'jose',
  'rate-limiter-flexible',
  'busboy',
  'eventsource-parser',
  'date-fns',
  'mime-types',
  'mime-db',
  'zod',
];

describe('a plain application', () => {
  it('loads none of the optional packages, nor RxJS whole, while it serves', async () => {
    const loaded = await loadedBy('none');
    expect(loaded.statuses).toEqual([200, 200, 200, 404]);
    expect(loaded.packages.filter((name) => OPTIONAL.includes(name))).toEqual([]);
    expect(loaded.packages).toEqual(expect.arrayContaining(['hono', 'rxjs']));
    // listen() answers from Node's own request and response: no other adapter is loaded.
    expect(loaded.packages).not.toContain('@hono/node-server');
    expect(loaded.rxjsIndex).toBe(false);
  }, 30_000);

  it('reads ISO dates without date-fns, which only date patterns need', async () => {
    const loaded = await loadedBy('dates');
    expect(loaded.statuses).toEqual([200, 200, 200, 404, 200]);
    expect(loaded.packages).not.toContain('date-fns');
  }, 30_000);

  it.each([
    ['metrics', ['prom-client']],
    ['openapi', ['yaml', 'zod']],
    ['websocket', ['ws']],
    ['jwt', ['jose']],
    ['rate-limit', ['rate-limiter-flexible']],
  ])(
    'loads the packages of %s once that feature is used',
    async (feature, expected) => {
      const loaded = await loadedBy(feature);
      expect(loaded.statuses.every((status) => status < 500)).toBe(true);
      expect(loaded.packages).toEqual(expect.arrayContaining(expected));
    },
    30_000,
  );
});
