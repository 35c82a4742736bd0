// Deno warns on the first read of a served request's `signal` (its legacy abort, which fires on successful answers):
// an answer that needs no signal must not read it.
import { call } from './support/contract';
import { startOn, type RuntimeServer } from './support/runtime-server';

describe('answers on Deno that read no request signal', () => {
  let server: RuntimeServer;

  beforeAll(async () => {
    server = await startOn('deno');
  }, 60_000);

  afterAll(() => server?.stop());

  it('answers 200, 404 and a 406 for an Accept the endpoint cannot meet, with no legacy-abort warning', async () => {
    const refused = await call(`${server.url}/contract/json`, { headers: { accept: 'text/html' } });
    const missing = await call(`${server.url}/nowhere`);
    const ok = await call(`${server.url}/contract/json`);
    // The runtime's output comes through a pipe of its own: give a warning written before the answers time to arrive.
    await new Promise((done) => setTimeout(done, 200));
    expect([ok.status, missing.status, refused.status]).toEqual([200, 404, 406]);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(server.output()).not.toMatch(/request\.signal/);
  });
});
