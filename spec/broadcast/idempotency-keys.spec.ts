// Idempotency keys a client sends, over a real socket, with the publish docs/broadcast.md shows (the request's
// `Idempotency-Key` handed to publish()): a key past 64 characters is kept as its SHA-256, so a stranger's 12 KB keys
// cost what UUIDs do. Kept whole, 1,000 of them held 14 MB for the topic's retention (100,000 of 16 KB: 1.6 GB), and
// on Redis Streams each was the name of a key kept as long.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { broadcast, HeaderParam, Path, POST, RestApplication, type RunningServer } from '../../lib';

// A full collection on demand, without running jest under --expose-gc.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

@Path('notes')
class Notes {
  @POST
  async post(@HeaderParam('Idempotency-Key') idempotencyKey?: string): Promise<{ id: string }> {
    return { id: await broadcast<{ n: number }>('notes').publish({ n: 1 }, { idempotencyKey }) };
  }
}

let server: RunningServer;
beforeAll(async () => {
  server = await RestApplication.build({ classes: [Notes] }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

async function post(key: string): Promise<string> {
  const answer = await fetch(`${server.url}/notes`, { method: 'POST', headers: { 'idempotency-key': key } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { id: string }).id;
}

describe('publish({ idempotencyKey })', () => {
  it('answers the first id to a repeated long key, another to a long key that differs in its last character', async () => {
    const long = 'k'.repeat(10_000);
    const first = await post(`${long}a`);
    expect(await post(`${long}a`)).toBe(first);
    expect(await post(`${long}b`)).not.toBe(first);
    expect(await post('short')).toBe(await post('short'));
  });

  it('keeps a stranger’s 12 KB keys at the cost of short ones: 1,000 of them hold less than 5 MB (1.7 MB seen)', async () => {
    await post('warm-up');
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 1000; n++) await post(`${n}-`.padEnd(12_000, 'x'));
    collect();
    // 14 MB before.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(5_000_000);
  });
});
