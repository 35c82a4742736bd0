import { gunzipSync, gzipSync } from 'node:zlib';
import { call } from './support/contract';
import { startOn, type RuntimeServer } from './support/runtime-server';

// Deno's DecompressionStream refuses a second gzip member (and Bun's and Deno's zero bytes after one); node:zlib,
// which both runtimes have, reads them as RFC 1952 allows.
describe.each(['bun', 'deno'] as const)('a @GZIP body of two gzip members on %s', (runtime) => {
  let server: RuntimeServer;
  beforeAll(async () => {
    server = await startOn(runtime, {
      overrides: { 'framework.legacy.gzip.enabled': true, 'framework.legacy.gzip.max-input': '1M' },
    });
  }, 60_000);
  afterAll(() => server?.stop());

  it('is inflated whole', async () => {
    const body = Buffer.concat([gzipSync('first member, '), gzipSync('second member')]);
    const answer = await call(`${server.url}/contract/inflated`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      body,
    });
    const bytes = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;
    expect([answer.status, JSON.parse(bytes.toString())]).toEqual([200, { length: 27, head: 'first member, second' }]);
  }, 60_000);
});
