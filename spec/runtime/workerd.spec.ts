import { gunzipSync, inflateSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { call, describeContract } from './support/contract';
import { JwksServer } from './support/jwks';
import { startOn, type RuntimeServer } from './support/runtime-server';

describeContract('workerd');

describe('streams on workerd without enable_request_signal (the client leaving is not told)', () => {
  let server: RuntimeServer;
  const at = (path: string) => `${server.url}${path}`;
  const open = async () => (JSON.parse((await call(at('/contract/open'))).body.toString()) as { open: number }).open;

  beforeAll(async () => {
    server = await startOn('workerd', {
      compatibilityFlags: ['nodejs_compat'],
      overrides: {
        'framework.runtime.workerd.stream-stall-timeout': '1s',
        'framework.runtime.workerd.stream-max-duration': '3s',
      },
    });
  }, 60_000);

  afterAll(() => server?.stop());

  it('ends a stream whose client left once a write goes untaken (its clean-up runs)', async () => {
    await new Promise<void>((done, fail) => {
      const sent = httpRequest(at('/contract/endless'), { headers: { accept: 'text/event-stream' }, agent: false });
      sent.on('response', (response) => response.once('data', () => (sent.destroy(), done())));
      sent.on('error', (error) => (sent.destroyed ? undefined : fail(error)));
      sent.end();
    });
    let left = -1;
    for (let tries = 0; tries < 150 && left !== 0; tries++) {
      await new Promise((done) => setTimeout(done, 100));
      left = await open();
    }
    expect(left).toBe(0);
  }, 30_000);

  it('ends a stream that a client reads after the maximum duration, cleanly', async () => {
    const started = Date.now();
    const answer = await call(at('/contract/endless'), { headers: { accept: 'text/event-stream' } });
    const took = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.body.toString().match(/^data:\d+$/gm)!.length).toBeGreaterThan(10);
    expect(took).toBeGreaterThanOrEqual(2900);
    expect(took).toBeLessThan(8000);
    expect(await open()).toBe(0);
  }, 20_000);
});

describe('a package handed in to a Worker bundle (jose for bearer JWTs)', () => {
  const jwks = new JwksServer();
  let server: RuntimeServer;

  beforeAll(async () => {
    const url = await jwks.start();
    server = await startOn('workerd', {
      fixture: { file: 'secure-app', build: 'buildSecureApp' },
      overrides: jwks.settings(url),
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await jwks.close();
  });

  it('verifies a JWT on workerd with the jose the bundle handed in', async () => {
    const token = await jwks.sign('alice', ['user']);
    const answer = await call(`${server.url}/secure/me`, { headers: { authorization: `Bearer ${token}` } });
    expect([answer.status, JSON.parse(answer.body.toString())]).toEqual([200, { name: 'alice', roles: ['user'] }]);
    const refused = await call(`${server.url}/secure/me`, { headers: { authorization: 'Bearer not.a.token' } });
    expect(refused.status).toBe(401);
  });
});

describe('compression on workerd without node:zlib', () => {
  let server: RuntimeServer;
  const text = 'rxrest on every runtime. '.repeat(200);

  beforeAll(async () => {
    server = await startOn('workerd', {
      // The runtime's zlib made unavailable, as on a Worker without it: rxrest finds no node:zlib.
      prelude: `const load = process.getBuiltinModule.bind(process);
  process.getBuiltinModule = (name) => (name === 'node:zlib' || name === 'zlib' ? undefined : load(name));`,
      // Event streams are compressed where zlib can flush each event.
      overrides: { 'framework.http.compress-media-types': 'text/plain,text/event-stream' },
    });
  }, 60_000);

  afterAll(() => server?.stop());

  /** What the application answered inside workerd, before Miniflare's front line re-encodes it. */
  async function inside(path: string, acceptEncoding: string) {
    const answer = await call(`${server.url}/inside${path}`, { headers: { 'x-accept-encoding': acceptEncoding } });
    const made = JSON.parse(answer.body.toString()) as { headers: Record<string, string>; body: string };
    return { encoding: made.headers['content-encoding'], body: Buffer.from(made.body, 'base64') };
  }

  it('encodes gzip and deflate a client can decode, and offers no brotli', async () => {
    const gzipped = await inside('/contract/text', 'br, gzip');
    expect(gzipped.encoding).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(text);
    const deflated = await inside('/contract/text', 'deflate');
    expect(deflated.encoding).toBe('deflate');
    expect(inflateSync(deflated.body).toString()).toBe(text);
    // Through Miniflare's front line too, as a client gets it.
    const answer = await call(`${server.url}/contract/text`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(answer.body).toString()).toBe(text);
  });

  it('sends an event stream unencoded, each event as it comes', async () => {
    const answer = await call(`${server.url}/contract/events`, {
      headers: { accept: 'text/event-stream', 'accept-encoding': 'identity' },
    });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString().match(/^data:.*$/gm)).toEqual(['data:0', 'data:1', 'data:2']);
    const events = answer.chunks.filter((chunk) => chunk.text.includes('data:'));
    expect(events.at(-1)!.at - events[0]!.at).toBeGreaterThan(300);
  });
});
