import { Consumes, GET, HEAD, OPTIONS, Path, POST, PUT, Produces, ResponseHeader } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('items')
class Items {
  @GET @ResponseHeader('X-Count', '2') list() {
    return [{ id: 1 }, { id: 2 }];
  }
  @POST @Consumes('application/json') create(body: { id: number }) {
    return body;
  }
  @POST @Consumes('text/plain') createText(body: string) {
    return `text:${body}`;
  }
  @GET @Path('{id}') one() {
    return { id: 'templated' };
  }
  @PUT @Path('special') special() {
    return 'special';
  }
}

@Path('negotiated')
class Negotiated {
  @GET @Produces('application/json', 'text/plain') get() {
    return 'Morbier';
  }
}

@Path('quality')
class Quality {
  @GET @Produces('text/plain; qs=0', 'application/json; qs=1') get() {
    return { q: 1 };
  }
}

@Path('explicit')
class Explicit {
  @GET get() {
    return 'body';
  }
  @HEAD head() {
    return undefined;
  }
  @OPTIONS options() {
    return 'OPTIONS';
  }
}

const app = buildApp([Items, Negotiated, Quality, Explicit]);

describe('selectEndpoint', () => {
  it('answers 404 with problem JSON when no path matches', async () => {
    const response = await call(app, '/missing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 404, code: 'RXREST_ROUTE_NOT_FOUND' });
  });

  it('answers 405 with an Allow header when the path matches but the method does not', async () => {
    const response = await call(app, '/items', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect(await response.json()).toMatchObject({ code: 'RXREST_METHOD_NOT_ALLOWED' });
  });

  it('prefers a method-compatible templated route over a more literal route of another method', async () => {
    const response = await call(app, '/items/special');
    expect(await response.json()).toEqual({ id: 'templated' });
  });

  it('chooses between methods that differ only in @Consumes by Content-Type', async () => {
    const asJson = await call(app, '/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"id":3}',
    });
    expect(await asJson.json()).toEqual({ id: 3 });
    const asText = await call(app, '/items', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(await asText.text()).toBe('text:hi');
  });

  it('answers 415 for a Content-Type no method consumes, an unparseable one, or none on a body method', async () => {
    for (const headers of [{ 'content-type': 'application/xml' }, { 'content-type': 'invalid' }, {}] as Record<
      string,
      string
    >[]) {
      // A Uint8Array body, unlike a string, gets no automatic Content-Type from Request.
      const response = await call(app, '/items', { method: 'POST', headers, body: new TextEncoder().encode('x') });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ code: 'RXREST_UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  it('negotiates the response type from Accept, honouring q-values', async () => {
    const json = await call(app, '/negotiated', { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    const text = await call(app, '/negotiated', { headers: { accept: 'application/json;q=0.5, text/plain' } });
    expect(text.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(await text.text()).toBe('Morbier');
  });

  it('answers 406 when no @Produces type is acceptable, and treats a malformed Accept as */*', async () => {
    const refused = await call(app, '/negotiated', { headers: { accept: 'image/png' } });
    expect(refused.status).toBe(406);
    expect(await refused.json()).toMatchObject({ code: 'RXREST_NOT_ACCEPTABLE' });
    const lenient = await call(app, '/negotiated', { headers: { accept: 'blah' } });
    expect(lenient.status).toBe(200);
  });

  it('uses the server quality qs when the client has no preference', async () => {
    const response = await call(app, '/quality');
    expect(response.headers.get('content-type')).toBe('application/json;charset=UTF-8');
  });

  it('answers HEAD from the GET method without a body but with its headers', async () => {
    const response = await call(app, '/items', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-count')).toBe('2');
    expect(response.headers.get('content-length')).toBe(String('[{"id":1},{"id":2}]'.length));
    expect(await response.text()).toBe('');
  });

  it('answers OPTIONS with the allowed methods unless declared', async () => {
    const automatic = await call(app, '/items', { method: 'OPTIONS' });
    expect(automatic.status).toBe(200);
    expect(automatic.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    const declared = await call(app, '/explicit', { method: 'OPTIONS' });
    expect(await declared.text()).toBe('OPTIONS');
  });

  it('prefers a declared @HEAD method over the GET fallback', async () => {
    const response = await call(app, '/explicit', { method: 'HEAD' });
    expect(response.status).toBe(204);
  });

  it('answers 400 for a malformed percent-encoding in the path', async () => {
    const response = await call(app, '/items/%zz');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'RXREST_MALFORMED_PATH' });
  });

  it('writes strings as text/plain and objects as JSON, both with charset UTF-8', async () => {
    expect((await call(app, '/explicit')).headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect((await call(app, '/items')).headers.get('content-type')).toBe('application/json;charset=UTF-8');
  });
});
