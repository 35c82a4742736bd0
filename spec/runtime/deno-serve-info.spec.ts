// What Deno's handler info (fetch's second argument) tells rxrest, and what it must not. Deno warns on the first read
// of a served request's `signal` (its legacy abort, which fires on successful answers): an answer that needs no signal
// must not read it. `info.completed` tells of the answer Deno serves: a handler may hand the same info to requests of
// its own (`app.fetch(new Request(…), info)`), whose answers Deno never sees.
import { call } from './support/contract';
import { startOn, type RuntimeServer } from './support/runtime-server';
import { until } from '../support/until';

/**
 * `/fanout?count=n` asks the application for `n` NDJSON lines (50 ms apart) with the served request's info, answers at
 * once, and reads those lines afterwards; `/fanout/result` tells what that read got.
 */
const FANOUT = `(() => {
  let result = 'pending';
  return async (request, info, app) => {
    const url = new URL(request.url);
    if (url.pathname === '/fanout/result') return new Response(result);
    if (url.pathname !== '/fanout') return app.fetch(request, info);
    result = 'reading';
    const lines = await app.fetch(new Request(new URL('/contract/ticks' + url.search, url)), info);
    lines.text().then((text) => (result = text), (error) => (result = 'failed: ' + error.message));
    return new Response('asked');
  };
})()`;

describe("Deno's handler info", () => {
  let server: RuntimeServer;

  beforeAll(async () => {
    server = await startOn('deno', { denoHandler: FANOUT });
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

  it("leaves the stream of a request of the handler's own whole when the answer Deno served is delivered", async () => {
    const asked = await call(`${server.url}/fanout?count=8`);
    expect([asked.status, asked.body.toString()]).toEqual([200, 'asked']);
    const result = await until(
      async () => {
        const text = (await call(`${server.url}/fanout/result`)).body.toString();
        return text === 'reading' ? undefined : text;
      },
      'the fanned-out stream read whole',
      15_000,
      50,
    );
    expect(result.trim().split('\n')).toEqual(Array.from({ length: 8 }, (_, n) => JSON.stringify({ n })));
  });
});
