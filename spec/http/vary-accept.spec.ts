// An answer whose media type was chosen by Accept among several an endpoint produces says so with `Vary: Accept`
// (RFC 9110 §12.5.5): without it a shared cache kept the JSON of `/cheese` and handed it to a client asking for
// text. So do that endpoint's errors, its 304 and every 406 (another Accept gets another answer): a cache kept a 406,
// or a problem body, and served it to a client whose Accept would have had the 200. An endpoint producing one type
// and an answer of no endpoint carry none.
import {
  EntityTag,
  GET,
  NotFoundException,
  Path,
  Produces,
  RestApplication,
  RestPath,
  RestRequest,
  RestResponse,
  type RunningServer,
} from '../../lib';
import { varyWith } from '../../lib/http/vary';

@Path('cheese')
class Cheese {
  @GET @Produces('application/json', 'text/plain') get(): unknown {
    return { name: 'Morbier' };
  }
  @GET @Path('any/{kind}') @Produces('text/*') any(@RestPath() kind: string): string {
    if (kind === 'none') throw new NotFoundException('no such kind');
    return kind;
  }
  @GET @Path('one') @Produces('application/json') one(): unknown {
    return { name: 'Brie' };
  }
  @GET @Path('one/missing') @Produces('application/json') missing(): unknown {
    throw new NotFoundException('no such cheese');
  }
  @GET @Path('plain') plain(): unknown {
    return { name: 'Comté' };
  }
  @GET @Path('tagged') @Produces('application/json', 'text/plain') tagged(request: RestRequest): unknown {
    const tag = new EntityTag('v1');
    return request.evaluatePreconditions(tag)?.build() ?? RestResponse.ResponseBuilder.ok('Tomme').tag(tag).build();
  }
}

const serve = (compression: boolean) =>
  RestApplication.build({
    classes: [Cheese],
    overrides: {
      'framework.http.enable-compression': compression,
      'framework.http.compress-media-types': 'text/plain',
    },
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });

describe('Vary: Accept', () => {
  let server: RunningServer;
  let compressed: RunningServer;
  beforeAll(async () => {
    server = await serve(false);
    compressed = await serve(true);
  });
  afterAll(async () => {
    await server.close();
    await compressed.close();
  });

  const vary = async (base: RunningServer, path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const answer = await fetch(`${base.url}${path}`, { headers, method });
    return [answer.status, answer.headers.get('vary')];
  };

  it('is sent when Accept chose among the types an endpoint produces, HEAD and a wildcard @Produces alike', async () => {
    expect(await vary(server, '/cheese', { accept: 'text/plain' })).toEqual([200, 'Accept']);
    expect(await vary(server, '/cheese', {}, 'HEAD')).toEqual([200, 'Accept']);
    expect(await vary(server, '/cheese/any/brie', { accept: 'text/html' })).toEqual([200, 'Accept']);
    expect(await vary(compressed, '/cheese', { accept: 'text/plain', 'accept-encoding': 'gzip' })).toEqual([
      200,
      'Accept, Accept-Encoding',
    ]);
  });

  it('is sent on the errors of such an endpoint, and on its 304', async () => {
    expect(await vary(server, '/cheese/any/none', { accept: 'text/plain' })).toEqual([404, 'Accept']);
    expect(await vary(server, '/cheese/any/none', {}, 'HEAD')).toEqual([404, 'Accept']);
    expect(await vary(server, '/cheese/tagged', { accept: 'text/plain', 'if-none-match': '"v1"' })).toEqual([
      304,
      'Accept',
    ]);
  });

  it('is sent on every 406: chosen among several types, one type, a default type, HEAD alike', async () => {
    expect(await vary(server, '/cheese', { accept: 'image/png' })).toEqual([406, 'Accept']);
    expect(await vary(server, '/cheese/one', { accept: 'text/csv' })).toEqual([406, 'Accept']);
    expect(await vary(server, '/cheese/one', { accept: 'text/csv' }, 'HEAD')).toEqual([406, 'Accept']);
    // A method without @Produces, refused once its result is known.
    expect(await vary(server, '/cheese/plain', { accept: 'text/csv' })).toEqual([406, 'Accept']);
  });

  it('is not sent for one produced type, its errors, or an answer of no endpoint', async () => {
    expect(await vary(server, '/cheese/one')).toEqual([200, null]);
    expect(await vary(server, '/cheese/one/missing')).toEqual([404, null]);
    expect(await vary(server, '/cheese/plain')).toEqual([200, null]);
    expect(await vary(server, '/missing')).toEqual([404, null]);
  });
});

describe('varyWith', () => {
  it('adds a field once, keeping those listed and a *', () => {
    expect(varyWith(null, 'Accept')).toBe('Accept');
    expect(varyWith('Origin', 'Accept')).toBe('Origin, Accept');
    expect(varyWith('origin, accept', 'Accept')).toBe('origin, accept');
    expect(varyWith('*', 'Accept')).toBe('*');
    expect(varyWith('Accept-Encoding', 'Accept')).toBe('Accept-Encoding, Accept');
  });
});
