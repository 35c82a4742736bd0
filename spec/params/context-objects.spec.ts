import { GET, HttpHeaders, Path, POST, ResourceInfo, UriInfo } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('ctx')
class ContextResource {
  @POST @Path('headers') headers(headers: HttpHeaders) {
    return {
      own: headers.requestHeaders.get('x-own'),
      tags: headers.requestHeader('x-tags'),
      none: headers.requestHeader('x-none'),
      accept: headers.acceptableMediaTypes,
      mediaType: headers.mediaType ?? null,
      cookies: Object.fromEntries(headers.cookies),
      length: headers.length,
    };
  }

  @GET @Path('uri/{id}') uri(uri: UriInfo) {
    return {
      matrix: Object.fromEntries(uri.matrixParameters),
      requestUri: uri.requestUri.href,
      base: uri.baseUriBuilder().path('other').queryParam('a', 1).toString(),
      again: uri.requestUriBuilder().replacePath('/elsewhere').replaceQuery().build().href,
      requery: uri.requestUriBuilder().replaceQuery('x=1').toString(),
    };
  }

  @GET @Path('info') info(info: ResourceInfo) {
    return { isThis: info.method === ContextResource.prototype.info, name: info.method?.name };
  }
}

const app = buildApp([ContextResource]);

describe('HttpHeaders', () => {
  it('reads the raw headers, a list header split, Accept best first, the media type, cookies and the length', async () => {
    const response = await call(app, '/ctx/headers', {
      method: 'POST',
      headers: {
        'x-own': 'mine',
        'x-tags': 'a, b,,c ',
        accept: 'text/plain;q=0.5, application/json, text/html;level=1;q=0.8',
        'content-type': 'Text/Plain; Charset=UTF-8',
        cookie: 'session=s1; theme=dark',
        'content-length': '3',
      },
      body: 'abc',
    });
    expect(await response.json()).toEqual({
      own: 'mine',
      tags: ['a', 'b', 'c'],
      none: [],
      accept: ['application/json', 'text/html;level=1', 'text/plain'],
      mediaType: 'text/plain;charset=UTF-8',
      cookies: { session: 's1', theme: 'dark' },
      length: 3,
    });
  });

  it('gives no media type and a length of -1 for a request without a body', async () => {
    const response = await call(app, '/ctx/headers', { method: 'POST' });
    expect(await response.json()).toMatchObject({ mediaType: null, length: -1, accept: ['*/*'] });
  });
});

describe('UriInfo', () => {
  it('gives the matrix parameters, the request URI and builders from the base and the request URI', async () => {
    const response = await call(app, '/ctx/uri;v=2;v=3/7?q=1');
    expect(await response.json()).toEqual({
      matrix: { v: ['2', '3'] },
      requestUri: 'http://localhost/ctx/uri;v=2;v=3/7?q=1',
      base: 'http://localhost/other?a=1',
      again: 'http://localhost/elsewhere',
      requery: 'http://localhost/ctx/uri;v=2;v=3/7?x=1',
    });
  });
});

describe('ResourceInfo', () => {
  it("gives the matched method's function", async () => {
    expect(await (await call(app, '/ctx/info')).json()).toEqual({ isThis: true, name: 'info' });
  });
});
