import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';

/** The samples contract of the core issue, checked over a real socket as a client would see it. */
describe('samples application (core contract)', () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    server = await buildSamples().listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    base = server.url;
  });
  afterAll(() => server.close());

  const post = (path: string, method: string, body: unknown) =>
    fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('serves /fruits: list, add and delete by name, validating the body', async () => {
    const initial = await fetch(`${base}/fruits`);
    expect(initial.status).toBe(200);
    expect(initial.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(await initial.json()).toEqual([
      { name: 'Apple', description: 'Winter fruit' },
      { name: 'Pineapple', description: 'Tropical fruit' },
    ]);
    expect(await (await post('/fruits', 'POST', { name: 'Pear', description: 'Autumn fruit' })).json()).toEqual([
      { name: 'Apple', description: 'Winter fruit' },
      { name: 'Pineapple', description: 'Tropical fruit' },
      { name: 'Pear', description: 'Autumn fruit' },
    ]);
    expect(await (await post('/fruits', 'DELETE', { name: 'Pear' })).json()).toEqual([
      { name: 'Apple', description: 'Winter fruit' },
      { name: 'Pineapple', description: 'Tropical fruit' },
    ]);
    const invalid = await post('/fruits', 'POST', { description: 'no name' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await invalid.json()) as { violations: unknown[] }).violations[0]).toMatchObject({
      in: 'body',
      field: 'name',
    });
  });

  it('serves /legumes and refuses writes with 405 before the method runs', async () => {
    expect(await (await fetch(`${base}/legumes`)).json()).toEqual([
      { name: 'Carrot', description: 'Root vegetable, usually orange' },
      { name: 'Zucchini', description: 'Summer squash' },
    ]);
    const refused = await post('/legumes', 'POST', { name: 'Pea', description: 'Small' });
    expect(refused.status).toBe(405);
    expect(((await (await fetch(`${base}/legumes`)).json()) as unknown[]).length).toBe(2);
  });

  it('serves /errors with the documented statuses and bodies', async () => {
    const bad = await fetch(`${base}/errors/bad-request`);
    expect([bad.status, await bad.text()]).toEqual([400, 'Nope']);
    const unhandled = await fetch(`${base}/errors/unhandled`);
    const body = await unhandled.text();
    expect(unhandled.status).toBe(500);
    expect(body).not.toContain('secret detail');
    const stock = await fetch(`${base}/errors/out-of-stock`);
    expect([stock.status, await stock.text()]).toEqual([409, 'Out of stock: bananas']);
    const wrapped = await fetch(`${base}/errors/wrapped`);
    expect([wrapped.status, await wrapped.text()]).toEqual([409, 'Out of stock: kiwis']);
  });
});
