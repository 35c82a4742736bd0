import { get, type IncomingMessage } from 'node:http';
import { GET, Path, RestApplication, RestResponse, resolveConfig, type RunningServer } from '../../lib';
import { ResponseHeaders } from '../../lib/response/response-headers';
import { RecordResource } from '../../samples/records/record-resource';
import { within } from '../support/until';

@Path('cookies')
class CookieResource {
  @GET
  both(): RestResponse<string> {
    return RestResponse.ResponseBuilder.ok('c', 'text/plain')
      .header('set-cookie', 'a=1')
      .header('set-cookie', 'b=2')
      .build();
  }
}

function fetchRaw(server: RunningServer, path: string): Promise<IncomingMessage> {
  return within(
    new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port: server.port, path }, (response) => {
        response.resume();
        resolve(response);
      }).on('error', reject);
    }),
    `the head of the answer to GET ${path}`,
  );
}

/** Header lines of one name, as they came off the socket. */
function lines(response: IncomingMessage, name: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < response.rawHeaders.length; i += 2)
    if (response.rawHeaders[i].toLowerCase() === name) found.push(response.rawHeaders[i + 1]);
  return found;
}

describe('Link header lines on a real socket', () => {
  let server: RunningServer;
  const app = RestApplication.build({
    classes: [RecordResource, CookieResource],
    config: resolveConfig({ overrides: {} }),
  });

  beforeAll(async () => {
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  it('writes one Link line per link, in order', async () => {
    const response = await fetchRaw(server, '/records/1');
    const origin = `http://127.0.0.1:${server.port}`;
    expect(lines(response, 'link')).toEqual([
      `<${origin}/records>; rel="list"`,
      `<${origin}/records/1>; rel="self"`,
      `<${origin}/records/1>; rel="update"`,
      `<${origin}/records/1>; rel="delete"`,
    ]);
  });

  it('writes a single link as one line', async () => {
    expect(lines(await fetchRaw(server, '/records'), 'link')).toEqual([
      `<http://127.0.0.1:${server.port}/records>; rel="list"`,
    ]);
  });

  it('keeps each Set-Cookie on its own line too', async () => {
    expect(lines(await fetchRaw(server, '/cookies'), 'set-cookie')).toEqual(['a=1', 'b=2']);
  });

  it('still answers in process with values joined and cookies apart once the server replaced Response', async () => {
    const response = await app.fetch(new Request('http://localhost/cookies'));
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const records = await app.fetch(new Request('http://localhost/records/2'));
    expect(records.headers.get('link')).toBe(
      '<http://localhost/records>; rel="list", <http://localhost/records/2>; rel="self", <http://localhost/records/2>; rel="update", <http://localhost/records/2>; rel="delete"',
    );
  });
});

describe('ResponseHeaders', () => {
  it('gives Node an array per repeated name and Headers one appended line each', () => {
    const headers = new ResponseHeaders()
      .add('link', '<a>; rel="x"')
      .add('Link', '<b>; rel="y"')
      .set('content-type', 'text/plain')
      .add('set-cookie', 'a=1')
      .add('set-cookie', 'b=2');
    const init = headers.toInit();
    expect({ ...init }).toEqual({
      link: ['<a>; rel="x"', '<b>; rel="y"'],
      'content-type': 'text/plain',
      'set-cookie': ['a=1', 'b=2'],
    });
    expect(Object.keys(init)).toEqual(['link', 'content-type', 'set-cookie']);
    const web = new Headers(init);
    expect(web.get('link')).toBe('<a>; rel="x", <b>; rel="y"');
    expect(web.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('keeps the plain record form when no name repeats', () => {
    const init = new ResponseHeaders({ 'x-one': '1', link: '<a>; rel="x"' }).toInit();
    expect(Symbol.iterator in init).toBe(false);
    expect(init).toEqual({ 'x-one': '1', link: '<a>; rel="x"' });
  });
});
