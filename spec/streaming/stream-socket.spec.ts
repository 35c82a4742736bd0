import { get, type ClientRequest } from 'node:http';
import { buildSamples } from '../../samples/app';
import type { RunningServer } from '../../lib';

let server: RunningServer;
beforeAll(async () => {
  server = await buildSamples({ 'framework.rest.sse.keep-alive': '0' }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

const active = async () => ((await (await fetch(`${server.url}/streams/active`)).json()) as { active: number }).active;

describe('stream over a real socket', () => {
  it('streams counted ticks as SSE and ends', async () => {
    const response = await fetch(`${server.url}/streams/ticks?count=3&intervalMs=5`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('data:0\n\ndata:1\n\ndata:2\n\n');
  });

  it('unsubscribes the source at once when the client disconnects', async () => {
    let request!: ClientRequest;
    await new Promise<void>((resolve) => {
      request = get(`${server.url}/streams/ticks?intervalMs=5`, (res) => res.once('data', () => resolve()));
    });
    expect(await active()).toBe(1);
    request.destroy();
    for (let i = 0; i < 1500 && (await active()) !== 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await active()).toBe(0);
  });

  it('serves the fruits stream and the static index page', async () => {
    const ndjson = await fetch(`${server.url}/streams/fruits`, { headers: { accept: 'application/x-ndjson' } });
    expect((await ndjson.text()).split('\n')[0]).toContain('"Apple"');
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('rxrest samples');
  });
});
