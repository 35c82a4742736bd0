import { EMPTY, of } from 'rxjs';
import {
  EntityTag,
  GET,
  NewCookie,
  Path,
  POST,
  ResponseHeader,
  ResponseStatus,
  RestResponse,
  ResponseBuilder,
} from '../../lib';
import { buildApp, call } from '../support/app';

describe('RestResponse', () => {
  it('builds every header form of the builder exactly', () => {
    const response = RestResponse.ResponseBuilder.ok('Hello', 'text/stef')
      .allow('BAR', 'FOO')
      .cacheControl({ noTransform: true, maxAge: 42, private: true })
      .contentLocation('http://example.com/content')
      .cookie(new NewCookie('Flavour', 'Praliné'))
      .encoding('Stef-Encoding')
      .expires(new Date(Date.UTC(2021, 0, 1)))
      .language('fr')
      .lastModified(new Date(Date.UTC(2021, 0, 2)))
      .link('http://example.com/link', 'stef')
      .location('http://example.com/location')
      .tag('yourit')
      .variant('Accept-Language')
      .build();
    const h = response.headers;
    expect(response.status).toBe(200);
    expect(response.mediaType).toBe('text/stef');
    expect(h.get('allow')).toBe('BAR, FOO');
    expect(h.get('cache-control')).toBe('no-transform, max-age=42, private');
    expect(h.get('content-location')).toBe('http://example.com/content');
    expect(h.get('set-cookie')).toMatch(/^Flavour=Pralin%C3%A9/);
    expect(h.get('content-encoding')).toBe('Stef-Encoding');
    expect(h.get('expires')).toBe('Fri, 01 Jan 2021 00:00:00 GMT');
    expect(h.get('content-language')).toBe('fr');
    expect(h.get('last-modified')).toBe('Sat, 02 Jan 2021 00:00:00 GMT');
    expect(h.get('link')).toBe('<http://example.com/link>; rel="stef"');
    expect(h.get('location')).toBe('http://example.com/location');
    expect(h.get('etag')).toBe('"yourit"');
    expect(h.get('vary')).toBe('Accept-Language');
  });

  it('has shortcuts for the usual statuses', () => {
    expect(RestResponse.seeOther('/x')).toMatchObject({ status: 303 });
    expect(RestResponse.seeOther('/x').headers.get('location')).toBe('/x');
    expect(RestResponse.created('/y', { id: 1 })).toMatchObject({ status: 201, entity: { id: 1 } });
    expect(RestResponse.noContent().status).toBe(204);
    expect(RestResponse.notFound().status).toBe(404);
    expect(RestResponse.status(418, 'tea').entity).toBe('tea');
    expect(RestResponse.notModified(new EntityTag('v', true)).headers.get('etag')).toBe('W/"v"');
    expect(ResponseBuilder.fromResponse(RestResponse.ok('a')).header('x', '1').build().headers.get('x')).toBe('1');
    expect(RestResponse.serverError().status).toBe(500);
    expect(RestResponse.accepted({ job: 7 })).toMatchObject({ status: 202, entity: { job: 7 } });
    expect(RestResponse.temporaryRedirect('/z')).toMatchObject({ status: 307 });
    expect(RestResponse.temporaryRedirect('/z').headers.get('location')).toBe('/z');
    expect(ResponseBuilder.noContent().build().status).toBe(204);
  });

  it('keeps each value of a repeated header apart, and gives none for an absent one', () => {
    const headers = RestResponse.ResponseBuilder.ok()
      .cookie(new NewCookie('a', '1'))
      .cookie(new NewCookie('b', '2'))
      .header('x-one', 'only')
      .build().headers;
    expect(headers.getAll('Set-Cookie').map((line) => line.split(';')[0])).toEqual(['a=1', 'b=2']);
    expect(headers.getAll('x-one')).toEqual(['only']);
    expect(headers.getAll('x-none')).toEqual([]);
  });
});

describe('endpoint results', () => {
  @Path('results')
  class Results {
    @GET @Path('rest') rest() {
      return RestResponse.ResponseBuilder.ok({ a: 1 })
        .header('x-one', '1')
        .cookie(new NewCookie('a', '1'), new NewCookie('b', '2'))
        .build();
    }
    @GET @Path('web') web() {
      return new Response('web body', { status: 202, headers: { 'content-type': 'text/csv', 'x-web': 'yes' } });
    }
    @POST @Path('created') @ResponseStatus(201) @ResponseHeader('X-Cheese', 'Camembert') created() {
      return 'made';
    }
    @GET @Path('static-ignored') @ResponseStatus(201) ignored() {
      return RestResponse.ok('explicit');
    }
    @GET @Path('nothing') nothing(): void {}
    @GET @Path('promise') async promise() {
      return { async: true };
    }
    @GET @Path('observable') observable() {
      return of({ first: true }, { second: true });
    }
    @GET @Path('empty') empty() {
      return EMPTY;
    }
    @GET @Path('redirect') redirect() {
      return RestResponse.seeOther('http://localhost/results/rest');
    }
  }
  const app = buildApp([Results]);

  it('writes a RestResponse with its headers, each cookie on its own line', async () => {
    const response = await call(app, '/results/rest');
    expect(response.headers.get('x-one')).toBe('1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ a: 1 });
  });

  it('passes a Web Response through', async () => {
    const response = await call(app, '/results/web');
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('text/csv');
    expect(await response.text()).toBe('web body');
  });

  it('applies @ResponseStatus and @ResponseHeader to plain results only', async () => {
    const created = await call(app, '/results/created', { method: 'POST' });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-cheese')).toBe('Camembert');
    expect((await call(app, '/results/static-ignored')).status).toBe(200);
  });

  it('answers 204 for no result and for an empty Observable', async () => {
    expect((await call(app, '/results/nothing')).status).toBe(204);
    expect((await call(app, '/results/empty')).status).toBe(204);
  });

  it('resolves Promises and takes the first value of an Observable', async () => {
    expect(await (await call(app, '/results/promise')).json()).toEqual({ async: true });
    expect(await (await call(app, '/results/observable')).json()).toEqual({ first: true });
  });

  it('redirects with 303 and a Location', async () => {
    const response = await call(app, '/results/redirect');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('http://localhost/results/rest');
  });
});
