import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { devToken } from '../../samples/security/mint-token';
import { until, within } from '../support/until';

/** What a raw node:http client saw: one entry per header line, and the body bytes as sent (never decoded). */
interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** [lower-case name, value] per header line, in the order the server sent them. */
  readonly lines: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

interface RawInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** One request over node:http, so repeated header lines and content codings stay visible. */
function raw(base: string, path: string, init: RawInit = {}): Promise<RawReply> {
  return within(
    new Promise((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const lines: Array<[string, string]> = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            lines.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, lines, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject);
      req.end(init.body);
    }),
    `the answer to ${init.method ?? 'GET'} ${path}`,
  );
}

const valuesOf = (reply: RawReply, name: string): string[] =>
  reply.lines.filter(([key]) => key === name).map(([, value]) => value);
const json = { 'Content-Type': 'application/json' };
const initialFruits = [
  { name: 'Apple', description: 'Winter fruit' },
  { name: 'Pineapple', description: 'Tropical fruit' },
];
const records = [
  { id: 1, slug: 'first', value: 'First value' },
  { id: 2, slug: 'second', value: 'Second value' },
];

/**
 * The whole samples contract (issues 2–7, README "Samples contract"), as a client sees it over one real socket.
 * Tests run in file order: reads of initial state come before the writes that change it.
 */
describe('samples application (the whole contract over HTTP)', () => {
  let server: RunningServer;
  let base: string;
  let bootedAt: number;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
  const send = (path: string, method: string, body: string | FormData, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method, headers, body });

  beforeAll(async () => {
    bootedAt = Math.floor(Date.now() / 1000) * 1000;
    server = await buildSamples().listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    base = server.url;
  });
  afterAll(() => server.close());

  describe('/fruits and the streamed fruits, before any write', () => {
    it('GET /fruits answers the initial list as JSON in insertion order', async () => {
      const res = await get('/fruits');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(await res.text()).toBe(JSON.stringify(initialFruits));
    });

    it('GET /streams/fruits is a JSON array by default and for Accept: application/json', async () => {
      for (const accept of [undefined, 'application/json']) {
        const res = await get('/streams/fruits', accept ? { Accept: accept } : {});
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(JSON.parse(await res.text())).toEqual(initialFruits);
      }
    });

    it('GET /streams/fruits is NDJSON, one fruit per line, for Accept: application/x-ndjson', async () => {
      const res = await get('/streams/fruits', { Accept: 'application/x-ndjson' });
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(await res.text()).toBe(initialFruits.map((fruit) => `${JSON.stringify(fruit)}\n`).join(''));
    });

    it('GET /streams/fruits is SSE, one data line per fruit, for Accept: text/event-stream', async () => {
      const res = await get('/streams/fruits', { Accept: 'text/event-stream' });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(await res.text()).toBe(initialFruits.map((fruit) => `data:${JSON.stringify(fruit)}\n\n`).join(''));
    });

    it('GET /streams/fruits answers 406 for an Accept it cannot produce', async () => {
      expect((await get('/streams/fruits', { Accept: 'text/csv' })).status).toBe(406);
    });

    it('GET /streams/ticks answers 404 for a count that is not a number', async () => {
      expect((await get('/streams/ticks?count=abc')).status).toBe(404);
    });
  });

  describe('/fruits writes', () => {
    it('POST /fruits adds a fruit and returns the whole list; DELETE removes by name', async () => {
      const added = await send('/fruits', 'POST', JSON.stringify({ name: 'Pear', description: 'Autumn fruit' }), json);
      expect(added.status).toBe(200);
      expect(await added.json()).toEqual([...initialFruits, { name: 'Pear', description: 'Autumn fruit' }]);
      const noDescription = await send('/fruits', 'POST', JSON.stringify({ name: 'Fig' }), json);
      expect(await noDescription.json()).toEqual([
        ...initialFruits,
        { name: 'Pear', description: 'Autumn fruit' },
        { name: 'Fig' },
      ]);
      const streamed = await get('/streams/fruits', { Accept: 'application/x-ndjson' });
      expect(
        (await streamed.text())
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as unknown),
      ).toEqual([...initialFruits, { name: 'Pear', description: 'Autumn fruit' }, { name: 'Fig' }]);
      await send('/fruits', 'DELETE', JSON.stringify({ name: 'Fig' }), json);
      const removed = await send('/fruits', 'DELETE', JSON.stringify({ name: 'Pear' }), json);
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual(initialFruits);
    });

    it('POST /fruits refuses a Fruit without a non-empty name with 400 problem JSON listing the violation', async () => {
      for (const body of [{ description: 'no name' }, { name: '' }, { name: 'Plum', description: 7 }]) {
        const res = await send('/fruits', 'POST', JSON.stringify(body), json);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await res.json()) as { violations: unknown[] }).violations.length).toBeGreaterThan(0);
      }
      expect(await (await get('/fruits')).json()).toEqual(initialFruits);
    });

    it('POST /fruits answers 400 for malformed JSON and 415 without a JSON Content-Type', async () => {
      expect((await send('/fruits', 'POST', '{"name":', json)).status).toBe(400);
      expect((await send('/fruits', 'POST', '{"name":"Plum"}', { 'Content-Type': 'text/plain' })).status).toBe(415);
      expect(
        (await fetch(`${base}/fruits`, { method: 'POST', body: new Uint8Array(Buffer.from('{"name":"Plum"}')) }))
          .status,
      ).toBe(415);
    });

    it('answers 405 with an Allow header for a method /fruits lacks, and 404 for an unknown path', async () => {
      const res = await raw(base, '/fruits', { method: 'PATCH' });
      expect(res.status).toBe(405);
      const allow = res.headers.allow!.split(/\s*,\s*/);
      expect(allow).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
      expect((await get('/no-such-path')).status).toBe(404);
    });

    it('answers HEAD /fruits without a body and OPTIONS /fruits with Allow', async () => {
      const head = await raw(base, '/fruits', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      const options = await raw(base, '/fruits', { method: 'OPTIONS' });
      expect(options.headers.allow!.split(/\s*,\s*/)).toEqual(
        expect.arrayContaining(['GET', 'POST', 'DELETE', 'HEAD', 'OPTIONS']),
      );
    });
  });

  describe('/legumes and /errors', () => {
    it('GET /legumes answers the two legumes', async () => {
      const res = await get('/legumes');
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json;charset=UTF-8']);
      expect(await res.text()).toBe(
        '[{"name":"Carrot","description":"Root vegetable, usually orange"},{"name":"Zucchini","description":"Summer squash"}]',
      );
    });

    it('POST /legumes is refused with 405 by the name-bound filter, before the method runs', async () => {
      const res = await send('/legumes', 'POST', JSON.stringify({ name: 'Pea', description: 'Small' }), json);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toMatch(/\bGET\b/);
      expect(((await (await get('/legumes')).json()) as unknown[]).length).toBe(2);
    });

    it('GET /errors/* answer 400 Nope, a generic 500, and 409 from the global mapper, also unwrapped', async () => {
      const bad = await get('/errors/bad-request');
      expect([bad.status, bad.headers.get('content-type'), await bad.text()]).toEqual([
        400,
        'text/plain;charset=UTF-8',
        'Nope',
      ]);
      const unhandled = await get('/errors/unhandled');
      expect(unhandled.status).toBe(500);
      expect(unhandled.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await unhandled.text()).not.toMatch(/secret detail|at .*\.ts/);
      const stock = await get('/errors/out-of-stock');
      expect([stock.status, stock.headers.get('content-type'), await stock.text()]).toEqual([
        409,
        'text/plain;charset=UTF-8',
        'Out of stock: bananas',
      ]);
      const wrapped = await get('/errors/wrapped');
      expect([wrapped.status, await wrapped.text()]).toEqual([409, 'Out of stock: kiwis']);
    });
  });

  describe('/cheeses', () => {
    const cheeseHeaders = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: 'level=hardcore',
      'X-Cheese-Secret-Handshake': 'fist-bump',
    };

    it('POST /cheeses;variant=goat/tomme reads matrix, path, query, cookie, header and form', async () => {
      const res = await send('/cheeses;variant=goat/tomme?age=matured', 'POST', 'smell=strong', cheeseHeaders);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe('tomme/goat/matured/hardcore/fist-bump/strong');
    });

    it('POST /cheeses;variant=goat/bean/tomme reads the same through @BeanParam', async () => {
      const res = await send('/cheeses;variant=goat/bean/tomme?age=matured', 'POST', 'smell=strong', cheeseHeaders);
      expect([res.status, await res.text()]).toEqual([200, 'tomme/goat/matured/hardcore/fist-bump/strong']);
    });

    it('GET /cheeses/{name} knows four cheeses and maps any other to 404 Unknown cheese', async () => {
      for (const name of ['morbier', 'brie', 'comte', 'tomme']) {
        const res = await get(`/cheeses/${name}`);
        expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
          200,
          'text/plain;charset=UTF-8',
          `Cheese: ${name}`,
        ]);
      }
      const unknown = await get('/cheeses/cheddar');
      expect([unknown.status, unknown.headers.get('content-type'), await unknown.text()]).toEqual([
        404,
        'text/plain;charset=UTF-8',
        'Unknown cheese: cheddar',
      ]);
    });
  });

  describe('/negotiated', () => {
    it('GET answers JSON by default and for application/json, text through the custom writer for text/plain', async () => {
      for (const accept of [undefined, 'application/json', '*/*']) {
        const res = await get('/negotiated', accept ? { Accept: accept } : {});
        expect([res.headers.get('content-type'), await res.text()]).toEqual([
          'application/json;charset=UTF-8',
          '{"name":"Morbier"}',
        ]);
      }
      const text = await get('/negotiated', { Accept: 'text/plain' });
      expect([text.status, text.headers.get('content-type'), await text.text()]).toEqual([
        200,
        'text/plain;charset=UTF-8',
        'Cheese: Morbier',
      ]);
    });

    it('GET honours q-values', async () => {
      const text = await get('/negotiated', { Accept: 'application/json;q=0.4, text/plain;q=0.9' });
      expect(await text.text()).toBe('Cheese: Morbier');
      const jsonFirst = await get('/negotiated', { Accept: 'text/plain;q=0.2, application/json' });
      expect(await jsonFirst.text()).toBe('{"name":"Morbier"}');
      const notJson = await get('/negotiated', { Accept: 'application/json;q=0, */*;q=0.1' });
      expect(await notJson.text()).toBe('Cheese: Morbier');
    });

    it('GET answers 406 for an Accept it cannot produce, and JSON for a malformed Accept (taken as */*)', async () => {
      expect((await get('/negotiated', { Accept: 'application/xml' })).status).toBe(406);
      expect(await (await get('/negotiated', { Accept: 'not a media type;;' })).text()).toBe('{"name":"Morbier"}');
    });

    it('PUT JSON answers text, PUT text answers JSON', async () => {
      const fromJson = await send('/negotiated', 'PUT', '{"name":"Brie"}', json);
      expect([fromJson.status, fromJson.headers.get('content-type'), await fromJson.text()]).toEqual([
        200,
        'text/plain;charset=UTF-8',
        'Cheese: Brie',
      ]);
      const fromText = await send('/negotiated', 'PUT', 'Comté', { 'Content-Type': 'text/plain;charset=UTF-8' });
      expect([fromText.status, fromText.headers.get('content-type'), await fromText.text()]).toEqual([
        200,
        'application/json;charset=UTF-8',
        '{"name":"Comté"}',
      ]);
      const bare = await send('/negotiated', 'PUT', 'Comté', { 'Content-Type': 'text/plain' });
      expect(await bare.text()).toBe('{"name":"Comté"}');
    });

    it('PUT answers 415 for another Content-Type and 406 when the produced type is not accepted', async () => {
      expect(
        (await send('/negotiated', 'PUT', '<name>Brie</name>', { 'Content-Type': 'application/xml' })).status,
      ).toBe(415);
      expect(
        (await send('/negotiated', 'PUT', '{"name":"Brie"}', { ...json, Accept: 'application/json' })).status,
      ).toBe(406);
      expect(
        (await send('/negotiated', 'PUT', 'Comté', { 'Content-Type': 'text/plain', Accept: 'text/plain' })).status,
      ).toBe(406);
    });
  });
  describe('/streams/ticks and /streams/active', () => {
    it('GET /streams/ticks?count=3&intervalMs=50 sends data 0, 1, 2 as SSE about every 50 ms, then ends', async () => {
      const started = Date.now();
      const res = await raw(base, '/streams/ticks?count=3&intervalMs=50');
      const elapsed = Date.now() - started;
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.body.toString()).toBe('data:0\n\ndata:1\n\ndata:2\n\n');
      expect(elapsed).toBeGreaterThanOrEqual(140);
      // Paced by intervalMs (the default is 1 s apart, 3 s in all), with room for a loaded machine.
      expect(elapsed).toBeLessThan(2500);
    });

    it('GET /streams/ticks delivers each event as it happens to a browser-like client', async () => {
      let encoding: string | undefined = 'unset';
      const arrivals = await new Promise<Array<[number, string]>>((resolve, reject) => {
        const started = Date.now();
        const seen: Array<[number, string]> = [];
        const req = httpRequest(
          `${base}/streams/ticks?count=3&intervalMs=150`,
          { headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
          (res) => {
            encoding = res.headers['content-encoding'];
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => seen.push([Date.now() - started, chunk]));
            res.on('end', () => resolve(seen));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(encoding).toBeUndefined();
      expect(arrivals.map(([, chunk]) => chunk).join('')).toBe('data:0\n\ndata:1\n\ndata:2\n\n');
      const firstEventAt = arrivals.find(([, chunk]) => chunk.includes('data:0'))![0];
      expect(firstEventAt).toBeLessThan(1000);
      expect(arrivals.at(-1)![0] - firstEventAt).toBeGreaterThanOrEqual(250);
    });

    it('GET /streams/ticks?count=0 ends at once with no event', async () => {
      const res = await raw(base, '/streams/ticks?count=0&intervalMs=10');
      expect([res.status, res.body.toString()]).toEqual([200, '']);
    });

    it('GET /streams/ticks?count=1 without intervalMs waits the default second', async () => {
      const started = Date.now();
      const res = await raw(base, '/streams/ticks?count=1');
      expect(res.body.toString()).toBe('data:0\n\n');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });

    it('GET /streams/active counts an endless ticks stream and drops back to 0 after the client disconnects', async () => {
      expect(await (await get('/streams/active')).json()).toEqual({ active: 0 });
      const firstEvent = new Promise<() => void>((resolve, reject) => {
        const req = httpRequest(`${base}/streams/ticks?intervalMs=20`, (res) => {
          res.once('data', () => resolve(() => req.destroy()));
        });
        req.on('error', () => undefined);
        req.once('error', reject);
        req.end();
      });
      const disconnect = await firstEvent;
      const during = await get('/streams/active');
      expect(during.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(await during.json()).toEqual({ active: 1 });
      disconnect();
      // A stream left running keeps the count at 1 for ever: wait with the generous deadline of until, not 50 polls.
      const active = async () => ((await (await get('/streams/active')).json()) as { active: number }).active;
      await until(async () => ((await active()) === 0 ? true : undefined), '/streams/active back to 0');
    });
  });

  describe('/chat', () => {
    /** Opens GET /chat/stream and reads it until `until` is in the text; `cancel` ends it. */
    const openChat = async (headers: Record<string, string> = {}) => {
      const res = await get('/chat/stream', headers);
      const reader = res.body!.getReader();
      let text = '';
      return {
        res,
        readUntil: async (until: string) => {
          while (!text.includes(until)) text += new TextDecoder().decode((await reader.read()).value);
          return text;
        },
        cancel: () => reader.cancel(),
      };
    };
    const post = (user: string, text: string) => send('/chat/messages', 'POST', JSON.stringify({ user, text }), json);
    const chatIds: string[] = [];

    it('POST /chat/messages answers 202 with an empty body; GET /chat/stream sends each message posted after connecting, with ids', async () => {
      const before = await post('early', 'not seen by the stream');
      expect(before.status).toBe(202);
      const stream = await openChat();
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toBe('text/event-stream');
      const first = await post('ada', 'hello');
      expect(first.status).toBe(202);
      expect(await first.text()).toBe('');
      await post('bob', 'hi ada');
      const text = await stream.readUntil('hi ada');
      await stream.cancel();
      const match =
        /^id:(\d+-\d+)\ndata:\{"user":"ada","text":"hello"\}\n\nid:(\d+-\d+)\ndata:\{"user":"bob","text":"hi ada"\}\n\n$/.exec(
          text,
        );
      expect(match).not.toBeNull();
      chatIds.push(match![1]!, match![2]!);
    });

    it('GET /chat/stream with Last-Event-ID first sends the messages after that id', async () => {
      await post('carol', 'while you were away');
      const stream = await openChat({ 'Last-Event-ID': chatIds[0]! });
      const text = await stream.readUntil('while you were away');
      await stream.cancel();
      expect(text).toMatch(
        new RegExp(
          `^id:${chatIds[1]}\ndata:\\{"user":"bob","text":"hi ada"\\}\n\nid:\\d+-\\d+\ndata:\\{"user":"carol","text":"while you were away"\\}\n\n$`,
        ),
      );
    });

    it('GET /chat/stream with a Last-Event-ID no longer held sends event: reset with the oldest id held, then every message held', async () => {
      const stream = await openChat({ 'Last-Event-ID': '1-0' });
      expect(stream.res.headers.get('stream-reset')).toMatch(/^\d+-\d+$/);
      const text = await stream.readUntil('while you were away');
      await stream.cancel();
      expect(text.startsWith(`event:reset\ndata:${stream.res.headers.get('stream-reset')}\n\nid:`)).toBe(true);
    });

    it('GET /chat/stream as NDJSON: one {id, data} per message; a reset is the Stream-Reset header and the first line', async () => {
      const res = await get('/chat/stream', { Accept: 'application/x-ndjson', 'Last-Event-ID': '1-0' });
      expect(res.headers.get('content-type')).toBe('application/x-ndjson');
      const oldest = res.headers.get('stream-reset');
      expect(oldest).toMatch(/^\d+-\d+$/);
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('while you were away')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      const lines = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id?: string; event?: string; data: unknown });
      expect(lines[0]).toEqual({ event: 'reset', data: oldest });
      expect(lines[1]!.id).toBe(oldest);
      expect(lines.at(-1)!.data).toEqual({ user: 'carol', text: 'while you were away' });
    });

    it('POST /chat/messages without a user or text answers 400 naming each field', async () => {
      const res = await send('/chat/messages', 'POST', '{"user":""}', json);
      expect(res.status).toBe(400);
      const problem = (await res.json()) as { violations: { field: string }[] };
      expect(problem.violations.map((violation) => violation.field)).toEqual(['user', 'text']);
    });
  });

  describe('/jobs', () => {
    it('POST /jobs?steps=3&interval=10 answers 202, empty, with Location: /jobs/{id}; GET /jobs/{id}/events sends each step with an id, then event: done', async () => {
      const started = await fetch(`${base}/jobs?steps=3&interval=10`, { method: 'POST' });
      expect(started.status).toBe(202);
      expect(await started.text()).toBe('');
      const location = started.headers.get('location')!;
      expect(location).toMatch(/^\/jobs\/[0-9a-f-]{36}$/);
      const events = await get(`${location}/events`);
      expect(events.status).toBe(200);
      expect(events.headers.get('content-type')).toBe('text/event-stream');
      const text = await events.text();
      expect(text).toMatch(
        /^id:\d+-\d+\ndata:\{"step":1\}\n\nid:\d+-\d+\ndata:\{"step":2\}\n\nid:\d+-\d+\ndata:\{"step":3\}\n\nid:\d+-\d+\nevent:done\ndata:\{"items":3\}\n\n$/,
      );
      const ids = [...text.matchAll(/^id:(.+)$/gm)].map((match) => match[1]!);
      const rest = await (await get(`${location}/events`, { 'Last-Event-ID': ids[0]! })).text();
      expect(rest).toBe(text.slice(text.indexOf(`id:${ids[1]}`)));
      const over = await get(`${location}/events`, { 'Last-Event-ID': ids[3]! });
      expect(over.status).toBe(204);
    });

    it('GET /jobs/{id}/events answers 404 problem JSON for an unknown job; POST /jobs without steps answers 400', async () => {
      const unknown = await get('/jobs/00000000-0000-0000-0000-000000000000/events');
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { code: string }).code).toBe('RXREST_STREAM_NOT_FOUND');
      const refused = await fetch(`${base}/jobs?interval=10`, { method: 'POST' });
      expect(refused.status).toBe(400);
      expect(
        ((await refused.json()) as { violations: { field: string }[] }).violations.map((violation) => violation.field),
      ).toEqual(['steps']);
    });
  });

  describe('/me and /admin/stats', () => {
    it('GET /me answers the caller of a bearer token as {name, roles}; 401 problem JSON with WWW-Authenticate: Bearer without one', async () => {
      const token = await devToken('alice', ['user']);
      const me = await get('/me', { Authorization: `Bearer ${token}` });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ name: 'alice', roles: ['user'] });
      const anonymous = await get('/me');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await anonymous.json()) as { code: string }).code).toBe('RXREST_UNAUTHORIZED');
      const expired = await get('/me', { Authorization: `Bearer ${await devToken('alice', ['user'], -60)}` });
      expect([expired.status, expired.headers.get('www-authenticate')]).toEqual([401, 'Bearer error="invalid_token"']);
    });

    it('GET /admin/stats answers an admin 200 with {uptimeSeconds}, anyone else 403 problem JSON', async () => {
      const admin = await get('/admin/stats', { Authorization: `Bearer ${await devToken('root', ['admin'])}` });
      expect(admin.status).toBe(200);
      expect(Object.keys((await admin.json()) as object)).toEqual(['uptimeSeconds']);
      const user = await get('/admin/stats', { Authorization: `Bearer ${await devToken('alice', ['user'])}` });
      expect(user.status).toBe(403);
      expect(((await user.json()) as { code: string }).code).toBe('RXREST_FORBIDDEN');
    });
  });

  describe('static files and compression', () => {
    it('GET / and GET /index.html answer samples/public/index.html as text/html with ETag and Last-Modified', async () => {
      for (const path of ['/', '/index.html']) {
        const res = await raw(base, path);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.body.toString()).toContain('<title>rxrest samples</title>');
        expect(res.headers.etag).toBeDefined();
        expect(res.headers['last-modified']).toMatch(/GMT$/);
        const again = await raw(base, path, { headers: { 'If-None-Match': res.headers.etag! } });
        expect([again.status, again.body.length]).toEqual([304, 0]);
      }
    });

    it('never serves a file outside samples/public, however .. is encoded', async () => {
      for (const path of [
        '/../package.json',
        '/%2e%2e/package.json',
        '/%2E%2E%2Fpackage.json',
        '/..%2f..%2fpackage.json',
        '/..%5cpackage.json',
      ]) {
        const res = await raw(base, path);
        expect(res.status).not.toBe(200);
        expect(res.body.toString()).not.toContain('"rxrest"');
      }
    });

    it('gzips the static page for Accept-Encoding: gzip, with Vary: Accept-Encoding', async () => {
      const res = await raw(base, '/index.html', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.body).toString()).toContain('<title>rxrest samples</title>');
    });

    it('gzips text answers of resources too', async () => {
      const res = await raw(base, '/cheeses/brie', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(res.body).toString()).toBe('Cheese: brie');
    });

    it('leaves JSON uncompressed for Accept-Encoding: gzip', async () => {
      const res = await raw(base, '/fruits', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body.toString())).toEqual(initialFruits);
    });
  });

  describe('/multipart', () => {
    const uploads = resolvePath('.uploads');
    const uploaded = () => (existsSync(uploads) ? readdirSync(uploads) : []);
    let before: string[] = [];
    beforeAll(() => {
      before = uploaded();
    });

    it('POST /multipart reads a text part, a file part and a JSON part', async () => {
      const form = new FormData();
      form.append('description', 'A tiny picture');
      form.append('image', new Blob([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], { type: 'image/png' }), 'tiny.png');
      form.append('person', '{"firstName":"Grace","lastName":"Hopper"}');
      const res = await send('/multipart', 'POST', form);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(await res.json()).toEqual({
        description: 'A tiny picture',
        image: { fileName: 'tiny.png', size: 7, contentType: 'image/png' },
        person: { firstName: 'Grace', lastName: 'Hopper' },
      });
    });

    it('POST /multipart accepts the JSON part sent with its own Content-Type', async () => {
      const form = new FormData();
      form.append('description', 'typed');
      form.append('image', new Blob(['abc'], { type: 'text/plain' }), 'a.txt');
      form.append(
        'person',
        new Blob(['{"firstName":"Ada","lastName":"Lovelace"}'], { type: 'application/json' }),
        'person.json',
      );
      const res = await send('/multipart', 'POST', form);
      expect(await res.json()).toEqual({
        description: 'typed',
        image: { fileName: 'a.txt', size: 3, contentType: 'text/plain' },
        person: { firstName: 'Ada', lastName: 'Lovelace' },
      });
    });

    it('POST /multipart with a description past 2048 bytes answers 413 over the socket, the whole small body sent at once', async () => {
      const form = new FormData();
      form.append('description', 'd'.repeat(3000));
      const res = await send('/multipart', 'POST', form);
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toBe('application/problem+json;charset=UTF-8');
      expect(((await res.json()) as { code: string }).code).toBe('RXREST_PART_TOO_LARGE');
    });

    it('POST /multipart/all summarises every part by name', async () => {
      const form = new FormData();
      form.append('note', 'hello');
      form.append('note', 'again');
      form.append('file', new Blob(['12345'], { type: 'text/csv' }), 'data.csv');
      const res = await send('/multipart/all', 'POST', form);
      expect(res.status).toBe(200);
      const note = (value: string) => ({
        name: 'note',
        size: value.length,
        charset: 'UTF-8',
        fileName: null,
        isFileItem: false,
        headers: { 'content-disposition': ['form-data; name="note"'] },
      });
      expect(await res.json()).toEqual({
        note: [note('hello'), note('again')],
        file: [
          {
            name: 'file',
            size: 5,
            charset: 'UTF-8',
            fileName: 'data.csv',
            isFileItem: true,
            headers: {
              'content-disposition': ['form-data; name="file"; filename="data.csv"'],
              'content-type': ['text/csv'],
            },
          },
        ],
      });
    });

    it('leaves no uploaded file behind once the responses are sent', async () => {
      const left = () => uploaded().filter((name) => !before.includes(name));
      // Files are removed after the responses have gone, later still on a loaded machine: up to 15 s, not 1 s.
      await until(() => (left().length === 0 ? true : undefined), 'the uploads to be removed').catch(() => undefined);
      expect(left()).toEqual([]);
    });

    it('POST /multipart answers 415 for a non-multipart body', async () => {
      expect((await send('/multipart', 'POST', '{}', json)).status).toBe(415);
    });

    it('GET /multipart/person answers a person JSON part and a text note part carrying X-Part: 1', async () => {
      const res = await raw(base, '/multipart/person');
      expect(res.status).toBe(200);
      const boundary = /^multipart\/form-data;\s*boundary=("?)([^";]+)\1$/.exec(res.headers['content-type'] ?? '')?.[2];
      expect(boundary).toBeDefined();
      const parts = res.body.toString().split(`--${boundary}`);
      expect(parts.at(-1)!.startsWith('--')).toBe(true);
      const [person, note] = parts.slice(1, -1).map((part) => {
        const [head, ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
        return { head: head.toLowerCase(), body: rest.join('\r\n\r\n').replace(/\r\n$/, '') };
      });
      expect(person.head).toContain('content-disposition: form-data; name="person"');
      expect(person.head).toMatch(/content-type: application\/json/);
      expect(JSON.parse(person.body)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
      expect(note.head).toContain('content-disposition: form-data; name="note"');
      expect(note.head).toMatch(/content-type: text\/plain/);
      expect(note.head).toMatch(/(^|\r\n)x-part: 1(\r\n|$)/);
      expect(note.body).toBe('The first programmer');
    });
  });
  describe('/conditional', () => {
    const text = { 'Content-Type': 'text/plain' };
    let firstModified = '';

    it('GET answers Some resource with ETag "v1" and a Last-Modified in whole seconds', async () => {
      const res = await raw(base, '/conditional');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain;charset=UTF-8');
      expect(res.headers.etag).toBe('"v1"');
      firstModified = res.headers['last-modified']!;
      expect(firstModified).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(new Date(firstModified).getTime()).toBeGreaterThanOrEqual(bootedAt);
      expect(new Date(firstModified).getTime()).toBeLessThanOrEqual(Date.now());
      expect(res.body.toString()).toBe('Some resource');
    });

    it('GET answers 304 with an empty body for If-Modified-Since of that date or If-None-Match "v1"', async () => {
      for (const headers of [{ 'If-Modified-Since': firstModified }, { 'If-None-Match': '"v1"' }] as Array<
        Record<string, string>
      >) {
        const res = await raw(base, '/conditional', { headers });
        expect([res.status, res.body.length, res.headers.etag]).toEqual([304, 0, '"v1"']);
      }
      const older = new Date(new Date(firstModified).getTime() - 1000).toUTCString();
      expect((await raw(base, '/conditional', { headers: { 'If-Modified-Since': older } })).status).toBe(200);
      expect((await raw(base, '/conditional', { headers: { 'If-None-Match': '"v0"' } })).status).toBe(200);
    });

    it('PUT with a stale If-Match answers 412 with the current ETag and an empty body, storing nothing', async () => {
      const res = await raw(base, '/conditional', {
        method: 'PUT',
        headers: { ...text, 'If-Match': '"v0"' },
        body: 'Lost update',
      });
      expect([res.status, res.headers.etag, res.body.length]).toEqual([412, '"v1"', 0]);
      expect(await (await get('/conditional')).text()).toBe('Some resource');
    });

    it('PUT stores the text and answers it with ETag "v2" and a new Last-Modified; then v1 is stale', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const res = await raw(base, '/conditional', {
        method: 'PUT',
        headers: { ...text, 'If-Match': '"v1"' },
        body: 'New text',
      });
      expect([res.status, res.headers.etag, res.body.toString()]).toEqual([200, '"v2"', 'New text']);
      expect(new Date(res.headers['last-modified']!).getTime()).toBeGreaterThan(new Date(firstModified).getTime());
      const stale = await raw(base, '/conditional', {
        method: 'PUT',
        headers: { ...text, 'If-Match': '"v1"' },
        body: 'Lost',
      });
      expect([stale.status, stale.headers.etag, stale.body.length]).toEqual([412, '"v2"', 0]);
      const unconditional = await raw(base, '/conditional', { method: 'PUT', headers: text, body: 'Third' });
      expect([unconditional.status, unconditional.headers.etag, unconditional.body.toString()]).toEqual([
        200,
        '"v3"',
        'Third',
      ]);
      const now = await raw(base, '/conditional');
      expect([now.headers.etag, now.body.toString()]).toEqual(['"v3"', 'Third']);
    });
  });

  describe('/stored-fruits', () => {
    it('POST answers 303 See Other with an absolute Location of the new id; GET reads it back', async () => {
      const first = await raw(base, '/stored-fruits', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Mango', description: 'Tropical' }),
      });
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe(`${base}/stored-fruits/1`);
      const second = await raw(base, '/stored-fruits', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Kiwi' }),
      });
      expect(second.headers.location).toBe(`${base}/stored-fruits/2`);
      const fetched = await fetch(first.headers.location!, { redirect: 'manual' });
      expect([fetched.status, fetched.headers.get('content-type')]).toEqual([200, 'application/json;charset=UTF-8']);
      expect(await fetched.text()).toBe('{"id":1,"name":"Mango","description":"Tropical"}');
      expect(await (await get('/stored-fruits/2')).json()).toEqual({ id: 2, name: 'Kiwi' });
    });

    it('a client following the redirect lands on the stored fruit with GET', async () => {
      const res = await send('/stored-fruits', 'POST', JSON.stringify({ name: 'Lime', description: 'Sour' }), json);
      expect(res.status).toBe(200);
      expect(res.url).toBe(`${base}/stored-fruits/3`);
      expect(await res.json()).toEqual({ id: 3, name: 'Lime', description: 'Sour' });
    });

    it('GET answers 404 for an unknown id and POST 400 for an invalid Fruit', async () => {
      for (const id of ['999', 'abc', '18446744073709551616'])
        expect((await get(`/stored-fruits/${id}`)).status).toBe(404);
      expect((await send('/stored-fruits', 'POST', JSON.stringify({ name: '' }), json)).status).toBe(400);
    });
  });

  describe('/records', () => {
    const hal = { Accept: 'application/hal+json' };
    const linkLine = (rel: string, path: string) => `<${base}${path}>; rel="${rel}"`;
    const instanceLinks = (id: number) => ({
      list: { href: `${base}/records` },
      self: { href: `${base}/records/${id}` },
      update: { href: `${base}/records/${id}` },
      delete: { href: `${base}/records/${id}` },
    });

    it('GET /records answers the JSON list with one Link line for the type link list', async () => {
      const res = await raw(base, '/records');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json;charset=UTF-8');
      expect(JSON.parse(res.body.toString())).toEqual(records);
      expect(valuesOf(res, 'link')).toEqual([linkLine('list', '/records')]);
    });

    it('GET /records with Accept: application/hal+json answers the HAL collection, each item with its links', async () => {
      const res = await raw(base, '/records', { headers: hal });
      expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
      expect(JSON.parse(res.body.toString())).toEqual({
        _embedded: { items: records.map((record) => ({ ...record, _links: instanceLinks(record.id) })) },
        _links: { list: { href: `${base}/records` } },
      });
    });

    it('GET /records/{id} answers the record with one Link line each for list, self, update and delete', async () => {
      const res = await raw(base, '/records/1');
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString())).toEqual(records[0]);
      expect([...valuesOf(res, 'link')].sort()).toEqual(
        [
          linkLine('list', '/records'),
          linkLine('self', '/records/1'),
          linkLine('update', '/records/1'),
          linkLine('delete', '/records/1'),
        ].sort(),
      );
      const halRes = await raw(base, '/records/2', { headers: hal });
      expect(halRes.headers['content-type']).toMatch(/^application\/hal\+json/);
      expect(JSON.parse(halRes.body.toString())).toEqual({ ...records[1], _links: instanceLinks(2) });
    });

    it('ignores X-Forwarded-* for links while proxy address forwarding is off', async () => {
      const res = await raw(base, '/records', {
        headers: { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
      });
      expect(valuesOf(res, 'link')).toEqual([linkLine('list', '/records')]);
    });

    it('GET /records/{id} answers 404 without links for an unknown or non-numeric id', async () => {
      for (const id of ['99', 'abc', '1.5']) {
        for (const headers of [{}, hal]) {
          const res = await raw(base, `/records/${id}`, { headers });
          expect(res.status).toBe(404);
          expect(valuesOf(res, 'link')).toEqual([]);
          expect(res.body.toString()).not.toContain('_links');
        }
      }
    });

    it('GET /records/hal-wrapped answers the programmatic HAL collection named records with a first-record link', async () => {
      for (const headers of [{}, hal]) {
        const res = await raw(base, '/records/hal-wrapped', { headers });
        expect(res.status).toBe(200);
        expect(JSON.parse(res.body.toString())).toEqual({
          _embedded: { records: records.map((record) => ({ ...record, _links: instanceLinks(record.id) })) },
          _links: { list: { href: `${base}/records` }, 'first-record': { href: `${base}/records/1` } },
        });
      }
    });

    it('PUT /records/{id} updates the record and answers it with its links; DELETE answers 204 and removes it', async () => {
      const put = await raw(base, '/records/2', {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ slug: 'second', value: 'Changed' }),
      });
      expect(put.status).toBe(200);
      expect(JSON.parse(put.body.toString())).toEqual({ id: 2, slug: 'second', value: 'Changed' });
      expect(valuesOf(put, 'link')).toEqual(
        expect.arrayContaining([linkLine('update', '/records/2'), linkLine('self', '/records/2')]),
      );
      expect(await (await get('/records/2')).json()).toEqual({ id: 2, slug: 'second', value: 'Changed' });
      const removed = await raw(base, '/records/2', { method: 'DELETE' });
      expect([removed.status, removed.body.length]).toEqual([204, 0]);
      expect((await get('/records/2')).status).toBe(404);
      expect(await (await get('/records')).json()).toEqual([records[0]]);
      expect((await raw(base, '/records/2', { method: 'DELETE' })).status).toBe(404);
      expect((await raw(base, '/records/abc', { method: 'PUT', headers: json, body: '{}' })).status).toBe(404);
    });
  });

  describe('bodies of items', () => {
    it('POST /fruits/import adds each NDJSON fruit and answers {"imported":n}; the first invalid line answers 400 naming it', async () => {
      const before = ((await (await get('/fruits')).json()) as unknown[]).length;
      const ok = await send('/fruits/import', 'POST', '{"name":"Kiwi"}\n{"name":"Lime","description":"Sour"}\n', {
        'Content-Type': 'application/x-ndjson',
      });
      expect([ok.status, await ok.text()]).toEqual([200, '{"imported":2}']);
      const fruits = (await (await get('/fruits')).json()) as { name: string }[];
      expect(fruits.slice(before).map((fruit) => fruit.name)).toEqual(['Kiwi', 'Lime']);
      const bad = await send('/fruits/import', 'POST', '{"name":"Fig"}\n{"name":""}\n{"name":"Date"}\n', {
        'Content-Type': 'application/x-ndjson',
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        code: 'RXREST_VALIDATION_FAILED',
        detail: 'Line 2 of the request body is invalid',
        violations: [{ field: 'name', message: 'a fruit needs a name' }],
      });
      // The fruits before the bad line stay; the ones after it were never read.
      expect(
        ((await (await get('/fruits')).json()) as { name: string }[]).slice(before).map((fruit) => fruit.name),
      ).toEqual(['Kiwi', 'Lime', 'Fig']);
    });

    it('POST /streams/uppercase answers NDJSON of strings upper-cased, line by line', async () => {
      const res = await send('/streams/uppercase', 'POST', '"apple"\n"crème"\n', {
        'Content-Type': 'application/x-ndjson',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-ndjson');
      expect(await res.text()).toBe('"APPLE"\n"CRÈME"\n');
    });
  });

  describe('conditional inclusion', () => {
    it('GET /dev-info and GET /beta answer 404 in the default prod profile with samples.beta.disabled=true', async () => {
      expect((await get('/dev-info')).status).toBe(404);
      expect((await get('/beta')).status).toBe(404);
    });

    it('GET /dev-info answers dev profile when built in the dev profile; /beta is served once enabled', async () => {
      const dev = await buildSamples({ 'framework.profile': 'dev' }).listen({
        port: 0,
        host: '127.0.0.1',
        handleSignals: false,
      });
      const beta = await buildSamples({ 'samples.beta.disabled': 'false' }).listen({
        port: 0,
        host: '127.0.0.1',
        handleSignals: false,
      });
      try {
        const info = await fetch(`${dev.url}/dev-info`);
        expect([info.status, await info.text()]).toEqual([200, 'dev profile']);
        expect((await fetch(`${dev.url}/beta`)).status).toBe(404);
        expect((await fetch(`${beta.url}/dev-info`)).status).toBe(404);
        const served = await fetch(`${beta.url}/beta`);
        expect([served.status, await served.text()]).toEqual([200, 'beta']);
      } finally {
        await Promise.all([dev.close(), beta.close()]);
      }
    });
  });
});
