// The samples a newcomer copies bound every input a stranger sends, over a real socket: field lengths (400 naming
// the field), body size (413 before parsing), how much they keep (fruits, stored fruits, running jobs), timer values
// (no overflow into a 1 ms tick), and the deploy profile of application.properties closes the management endpoints
// to all but the ops role, health left open for probes.
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { fruitStore, MAX_FRUITS } from '../../samples/fruits/fruit-resource';
import { devToken } from '../../samples/security/mint-token';

let server: RunningServer;
const saved = [...fruitStore];
beforeAll(async () => {
  server = await buildSamples().listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());
afterEach(() => fruitStore.splice(0, fruitStore.length, ...saved));

const send = (path: string, method: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body });

async function fields(response: Response): Promise<[number, string[]]> {
  const problem = (await response.json()) as { violations?: { field: string }[] };
  return [response.status, (problem.violations ?? []).map((violation) => violation.field)];
}

describe('the samples bound what strangers send', () => {
  it('/fruits: a name of at most 64 characters, a description of at most 256, a body of at most 1M', async () => {
    expect((await send('/fruits', 'POST', JSON.stringify({ name: 'x'.repeat(64) }))).status).toBe(200);
    expect(await fields(await send('/fruits', 'POST', JSON.stringify({ name: 'x'.repeat(65) })))).toEqual([
      400,
      ['name'],
    ]);
    const long = JSON.stringify({ name: 'Fig', description: 'd'.repeat(257) });
    expect(await fields(await send('/fruits', 'POST', long))).toEqual([400, ['description']]);
    const huge = await send('/fruits', 'POST', JSON.stringify({ name: 'n'.repeat(9 * 1024 * 1024) }));
    expect([huge.status, ((await huge.json()) as { code: string }).code]).toEqual([413, 'RXREST_BODY_TOO_LARGE']);
  });

  it('/fruits keeps at most MAX_FRUITS, by POST and by import alike (409), so the list it answers stays small', async () => {
    for (let n = fruitStore.length; n < MAX_FRUITS; n++)
      expect((await send('/fruits', 'POST', JSON.stringify({ name: `fruit ${n}` }))).status).toBe(200);
    const full = await send('/fruits', 'POST', JSON.stringify({ name: 'one too many' }));
    expect(full.status).toBe(409);
    const imported = await send('/fruits/import', 'POST', '{"name":"more"}\n', {
      'content-type': 'application/x-ndjson',
    });
    expect(imported.status).toBe(409);
    expect(((await (await fetch(`${server.url}/fruits`)).json()) as unknown[]).length).toBe(MAX_FRUITS);
  });

  it('/stored-fruits forgets the oldest past 100', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 101; n++) {
      const stored = await fetch(`${server.url}/stored-fruits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `kept ${n}` }),
        redirect: 'manual',
      });
      ids.push(new URL(stored.headers.get('location')!).pathname);
    }
    expect((await fetch(`${server.url}${ids[0]}`)).status).toBe(404);
    expect((await fetch(`${server.url}${ids[1]}`)).status).toBe(200);
  });

  it('/jobs: at most 100,000 steps and a grace of a minute, and 20 jobs running at once (503 with Retry-After)', async () => {
    const start = (query: string) => fetch(`${server.url}/jobs?${query}`, { method: 'POST' });
    for (const query of ['steps=1000000&interval=0', 'steps=10&interval=0&grace=3600000', 'steps=10&interval=60001'])
      expect([query, (await start(query)).status]).toEqual([query, 400]);
    const started: number[] = [];
    for (let n = 0; n < 20; n++) started.push((await start('steps=100000&interval=60000&grace=60000')).status);
    expect(started).toEqual(new Array(20).fill(202));
    const refused = await start('steps=1&interval=0');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '5']);
  });

  it('/streams/ticks: an intervalMs past a minute is a 400, not a tick every millisecond', async () => {
    for (const every of ['99999999999', '60001', '-1'])
      expect([every, (await fetch(`${server.url}/streams/ticks?intervalMs=${every}`)).status]).toEqual([every, 400]);
  });

  it('/chat/messages: an Idempotency-Key of at most 128 characters; /records: bounded slug and value', async () => {
    const message = JSON.stringify({ user: 'ada', text: 'hi' });
    expect((await send('/chat/messages', 'POST', message, { 'idempotency-key': 'k'.repeat(128) })).status).toBe(202);
    expect((await send('/chat/messages', 'POST', message, { 'idempotency-key': 'k'.repeat(129) })).status).toBe(400);
    expect((await send('/records/1', 'PUT', JSON.stringify({ value: 'v'.repeat(1001) }))).status).toBe(400);
    expect((await send('/records/1', 'PUT', JSON.stringify({ slug: 's'.repeat(65) }))).status).toBe(400);
  });
});

describe('the deploy profile of samples/application.properties', () => {
  let deployed: RunningServer;
  beforeAll(async () => {
    deployed = await buildSamples({ 'framework.profile': 'deploy' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  });
  afterAll(() => deployed.close());

  it('answers the management endpoints to the ops role only, leaves health open and serves no API page', async () => {
    const get = async (path: string, roles?: string[]) =>
      (
        await fetch(`${deployed.url}${path}`, {
          headers: roles ? { authorization: `Bearer ${await devToken('ops-bot', roles)}` } : {},
        })
      ).status;
    const paths = ['/q/metrics', '/q/openapi'];
    expect(await Promise.all(paths.map((path) => get(path)))).toEqual([401, 401]);
    expect(await Promise.all(paths.map((path) => get(path, ['admin'])))).toEqual([403, 403]);
    expect(await Promise.all(paths.map((path) => get(path, ['ops'])))).toEqual([200, 200]);
    expect(await get('/q/health/live')).toBe(200);
    expect(await get('/q/swagger-ui', ['ops'])).toBe(404);
    expect(await get('/fruits')).toBe(200);
  });
});
