import { gunzipSync, gzipSync } from 'node:zlib';
import { call, type Answer } from './support/contract';
import { startOn, type RuntimeServer } from './support/runtime-server';

/** The JSON of an answer (a @GZIP method's answers may be gzip too). */
const json = (answer: Answer): unknown =>
  JSON.parse((answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body).toString());

// Deno's DecompressionStream refuses a second gzip member (and Bun's and Deno's zero bytes after one); node:zlib,
// which both runtimes have, reads them as RFC 1952 allows.
describe.each(['bun', 'deno'] as const)('@GZIP bodies inflated through node:zlib on %s', (runtime) => {
  let server: RuntimeServer;
  const post = (body: Uint8Array) =>
    call(`${server.url}/contract/inflated`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      body,
    });

  beforeAll(async () => {
    server = await startOn(runtime, {
      overrides: { 'framework.legacy.gzip.enabled': true, 'framework.legacy.gzip.max-input': '1M' },
    });
  }, 60_000);
  afterAll(() => server?.stop());

  it('inflates a body of two gzip members whole', async () => {
    const answer = await post(Buffer.concat([gzipSync('first member, '), gzipSync('second member')]));
    expect([answer.status, json(answer)]).toEqual([200, { length: 27, head: 'first member, second' }]);
  }, 60_000);

  it('answers 413 for a gzip bomb, and goes on serving', async () => {
    // 100 MB of zeros in 100 KB: the inflater has far more output ready than the reader takes before the limit.
    const bomb = await post(gzipSync(Buffer.alloc(100 * 1024 * 1024), { level: 9 }));
    expect([bomb.status, json(bomb)]).toEqual([413, expect.objectContaining({ code: 'RXREST_BODY_TOO_LARGE' })]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const next = await post(gzipSync('still here'));
    expect([next.status, json(next)]).toEqual([200, { length: 10, head: 'still here' }]);
  }, 60_000);

  // The inflated request is made without the received one's signal: on Deno, reading it makes the legacy signal abort
  // after every answer, and Deno warns.
  it("never reads Deno's legacy request.signal", () => {
    expect(server.output()).not.toMatch(/legacy behavior|request\.signal/);
  });
});
