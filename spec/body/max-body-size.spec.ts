import { request as httpRequest } from 'node:http';
import { Consumes, Path, POST, type RunningServer } from '../../lib';
import { buildApp, call, json } from '../support/app';

class Item {
  name = '';
  describe() {
    return `item ${this.name}`;
  }
}

@Path('bodies')
@Consumes('application/json')
class Bodies {
  @POST echo(item: Item) {
    return { kind: item instanceof Item ? item.describe() : 'plain', item };
  }
}

const app = buildApp([Bodies], { 'framework.http.limits.max-body-size': '1K' });

/** A request body arriving in `parts`, as a runtime hands a chunked one over. */
function chunks(...parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

describe('JSON request bodies', () => {
  it('maps the body to an instance of the declared class', async () => {
    const response = await call(app, '/bodies', json({ name: 'kiwi', extra: true }));
    expect(await response.json()).toEqual({ kind: 'item kiwi', item: { name: 'kiwi', extra: true } });
  });

  it('answers 400 for malformed JSON and for an empty required body', async () => {
    const malformed = await call(app, '/bodies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'RXREST_MALFORMED_BODY' });
    const empty = await call(app, '/bodies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'RXREST_MISSING_BODY' });
  });

  it.each([['{"__proto__":{"admin":true}}'], ['{"a":[{"constructor":{"prototype":{"admin":true}}}]}']])(
    'refuses prototype poisoning in %s',
    async (body) => {
      const response = await call(app, '/bodies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'RXREST_FORBIDDEN_PROPERTY' });
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    },
  );

  it('reads a body of several chunks whole, and one with a declared Content-Length, as a runtime hands them over', async () => {
    const chunked = await call(app, '/bodies', { ...json({}), body: chunks('{"name":', '"fig"}') });
    expect(await chunked.json()).toEqual({ kind: 'item fig', item: { name: 'fig' } });
    const body = JSON.stringify({ name: 'kiwi' });
    const declared = await call(app, '/bodies', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    expect(await declared.json()).toEqual({ kind: 'item kiwi', item: { name: 'kiwi' } });
  });

  it('answers 413 for a body of chunks as soon as they pass the limit', async () => {
    const response = await call(app, '/bodies', { ...json({}), body: chunks('{"name":"', 'x'.repeat(2000), '"}') });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'RXREST_BODY_TOO_LARGE' });
  });

  it('answers 413 at once when Content-Length passes framework.http.limits.max-body-size', async () => {
    const response = await call(app, '/bodies', json({ name: 'x'.repeat(2000) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'RXREST_BODY_TOO_LARGE' });
  });
});

describe('max-body-size on a real socket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  it('answers 413 for a chunked body as soon as it passes the limit, without reading the rest', async () => {
    const { status, sentWhenAnswered } = await new Promise<{ status: number; sentWhenAnswered: number }>(
      (resolve, reject) => {
        let sent = 0;
        const req = httpRequest({
          host: '127.0.0.1',
          port: server.port,
          path: '/bodies',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        });
        req.on('response', (res) => {
          resolve({ status: res.statusCode ?? 0, sentWhenAnswered: sent });
          res.resume();
          req.destroy();
        });
        req.on('error', (error) => (sent > 0 ? undefined : reject(error)));
        req.write('{"name":"');
        const chunk = 'x'.repeat(512);
        const pump = () => {
          // Bounded: at most 1 MiB is ever offered; the server must answer long before that.
          if (sent > 1024 * 1024 || req.destroyed) return;
          sent += chunk.length;
          if (req.write(chunk)) setImmediate(pump);
          else req.once('drain', pump);
        };
        pump();
      },
    );
    expect(status).toBe(413);
    expect(sentWhenAnswered).toBeLessThan(1024 * 1024);
  });
});
