// listen() answers HTTP/1.1 from Node's own request and response; app.fetch is the general path, here served by
// @hono/node-server as listen() served it before. Every case, one per condition the Node path handles on its own
// (plain, JSON and empty bodies, HEAD, errors and problems, headers of many lines, a Web Response, files and
// ranges, static files, compression, forms, streams, multipart, URL normalization and refusals), must get the
// same answer both ways: status, the same header lines (names compared without case; Date left out) and the
// same body bytes.
import { serve, type ServerType } from '@hono/node-server';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Body,
  Consumes,
  Context,
  FormParam,
  GET,
  HEAD,
  NewCookie,
  Path,
  POST,
  Produces,
  QueryParam,
  RestApplication,
  RestResponse,
  localFile,
  type RunningServer,
} from '../../lib';
import { sampleClasses } from '../../samples/classes';
import { within } from '../support/until';

@Path('edge')
class EdgeResource {
  @GET
  @Path('cookies')
  @Produces('text/plain')
  cookies(): RestResponse<string> {
    return RestResponse.ResponseBuilder.ok('two cookies', 'text/plain')
      .cookie(new NewCookie('a', '1'), new NewCookie('b', '2'))
      .header('x-many', 'one')
      .header('x-many', 'two')
      .build();
  }

  @GET
  @Path('web')
  @Produces('text/plain')
  web(): Response {
    return new Response('from a Web Response', {
      status: 201,
      statusText: 'Made',
      headers: { 'x-web': 'yes', 'set-cookie': 'c=3' },
    });
  }

  @GET
  @Path('empty')
  empty(): void {}

  /** Reads the Web request (made on demand on the Node path) for its URL. */
  @GET
  @Path('moved')
  moved(@Context() request: Request): RestResponse<never> {
    return RestResponse.seeOther(new URL('/fruits', request.url));
  }

  @GET
  @Path('thrown')
  thrown(): string {
    throw new Error('an internal detail that must not leak');
  }

  @GET
  @Path('file')
  file(): unknown {
    return localFile(__filename, 'text/plain');
  }

  @HEAD
  @Path('head')
  @Produces('text/plain')
  head(): string {
    return 'a body HEAD leaves out';
  }

  @POST
  @Path('form')
  @Consumes('application/x-www-form-urlencoded')
  @Produces('application/json')
  form(@FormParam('name') name: string, @FormParam('tag') tags: string[]): { name: string; tags: string[] } {
    return { name, tags };
  }

  @POST
  @Path('text')
  @Consumes('text/plain')
  @Produces('text/plain')
  text(@Body() body: string, @QueryParam('suffix') suffix?: string): string {
    return `${body}${suffix ?? ''}`;
  }
}

interface Answer {
  readonly status: number;
  readonly message: string;
  /** [lower-case name, value], in the order sent, Date left out. */
  readonly headers: [string, string][];
  readonly body: Buffer;
}

interface Case {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

function exchange(port: number, { method = 'GET', path, headers = {}, body }: Case): Promise<Answer> {
  return within(
    new Promise((resolve, reject) => {
      // One Host for both servers (they listen on different ports), so that absolute URLs in answers agree.
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: { connection: 'close', host: 'localhost:8080', ...headers },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const lines: [string, string][] = [];
            for (let i = 0; i < res.rawHeaders.length; i += 2)
              if (res.rawHeaders[i]!.toLowerCase() !== 'date')
                lines.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
            resolve({
              status: res.statusCode ?? 0,
              message: res.statusMessage ?? '',
              headers: lines,
              body: Buffer.concat(chunks),
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    }),
    'the answer',
  );
}

/** Multipart boundaries are random: each answer's is replaced by one placeholder. */
const BOUNDARY = /rxrest-[0-9a-f]{48}/g;

/** The same header lines, whatever the order each server wrote them in (each writes its own fields in its own order). */
const sorted = (lines: [string, string][]) =>
  lines
    .map(([name, value]): [string, string] => [name, value.replace(BOUNDARY, 'boundary')])
    .sort(([a, x], [b, y]) => (a === b ? x.localeCompare(y) : a.localeCompare(b)));

const json = { 'content-type': 'application/json' };
const CASES: Record<string, Case> = {
  'a JSON list': { path: '/fruits' },
  'a JSON list, gzip asked': { path: '/fruits', headers: { 'accept-encoding': 'gzip' } },
  'text compressed by gzip': { path: '/', headers: { 'accept-encoding': 'gzip' } },
  'text by a custom writer': { path: '/negotiated', headers: { accept: 'text/plain' } },
  'a path and query parameter': { path: '/cheeses/brie?age=young' },
  'an invalid JSON body: 400 problem': { method: 'POST', path: '/fruits', headers: json, body: '{"name":' },
  'a body failing validation: 400 with violations': {
    method: 'POST',
    path: '/fruits',
    headers: json,
    body: '{"description":"no name"}',
  },
  'an unsupported Content-Type: 415': {
    method: 'POST',
    path: '/fruits',
    headers: { 'content-type': 'text/csv' },
    body: 'a,b',
  },
  'a text body': {
    method: 'POST',
    path: '/edge/text?suffix=!',
    headers: { 'content-type': 'text/plain' },
    body: 'héllo',
  },
  'a text body with a byte order mark': {
    method: 'POST',
    path: '/edge/text',
    headers: { 'content-type': 'text/plain' },
    body: Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]),
  },
  'an empty text body': {
    method: 'POST',
    path: '/edge/text',
    headers: { 'content-type': 'text/plain', 'content-length': '0' },
  },
  'a chunked text body': {
    method: 'POST',
    path: '/edge/text',
    headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
    body: 'in chunks',
  },
  'a form with a repeated field': {
    method: 'POST',
    path: '/edge/form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=a+b&tag=x&tag=y%21',
  },
  'a body over the limit: 413': {
    method: 'POST',
    path: '/edge/text',
    headers: { 'content-type': 'text/plain' },
    body: 'x'.repeat(11 * 1024 * 1024),
  },
  'no route: 404 problem': { path: '/nowhere' },
  'a method not allowed: 405 with Allow': { method: 'PATCH', path: '/fruits' },
  'nothing acceptable: 406': { path: '/fruits', headers: { accept: 'image/png' } },
  'OPTIONS with Allow': { method: 'OPTIONS', path: '/fruits' },
  'HEAD of a GET': { method: 'HEAD', path: '/fruits' },
  'HEAD of its own': { method: 'HEAD', path: '/edge/head' },
  'a 303 to a URL made from the Web request': { path: '/edge/moved' },
  'a mapped error: 409': { path: '/errors/out-of-stock' },
  'an unhandled error: 500 without details': { path: '/edge/thrown' },
  'no entity: 204': { path: '/edge/empty' },
  'cookies and repeated headers': { path: '/edge/cookies' },
  'a Web Response with its status text': { path: '/edge/web' },
  'a file': { path: '/edge/file' },
  'a range of a file: 206': { path: '/edge/file', headers: { range: 'bytes=10-19' } },
  'a static file, then 304': { path: '/index.html', headers: { 'if-none-match': '"no"' } },
  'preconditions: 412': {
    method: 'PUT',
    path: '/conditional',
    headers: { 'if-match': '"stale"', 'content-type': 'text/plain' },
    body: 'x',
  },
  'links in the head': { path: '/records/1' },
  'an NDJSON stream': { path: '/streams/fruits', headers: { accept: 'application/x-ndjson' } },
  'an SSE stream': { path: '/streams/ticks?count=3&intervalMs=0' },
  'multipart out': { path: '/multipart/person' },
  'a dot segment, normalized': { path: '/a/../fruits' },
  'an escaped path': { path: '/cheeses/%62rie' },
  'a malformed escape: 400': { path: '/cheeses/%zz' },
  'an absolute-form target': { path: 'http://localhost/fruits' },
  'a host that is not plain': { path: '/fruits', headers: { host: 'LocalHost:80' } },
};

let direct: RunningServer;
let general: ServerType;
let generalPort: number;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [...sampleClasses, EdgeResource],
    directory: `${__dirname}/../../samples`,
    overrides: {
      'framework.rest.sse.keep-alive': '0',
      'framework.http.static.directory': 'public',
      'framework.http.enable-compression': 'true',
      'framework.http.body.uploads-directory': '.uploads',
    },
  });
  direct = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  general = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => (general.listening ? resolve() : general.once('listening', () => resolve())));
  generalPort = (general.address() as AddressInfo).port;
}, 30_000);
afterAll(async () => {
  await direct.close();
  await new Promise((resolve) => general.close(resolve));
});

describe('answers from Node (listen()) and through the Web path (app.fetch)', () => {
  it.each(Object.entries(CASES))('agree on %s', async (_name, exchanged) => {
    // One after the other: some cases change state (a fruit added) that the next would see.
    const fromNode = await exchange(direct.port, exchanged);
    const fromWeb = await exchange(generalPort, exchanged);
    expect(fromNode.status).toBe(fromWeb.status);
    expect(fromNode.message).toBe(fromWeb.message);
    expect(sorted(fromNode.headers)).toEqual(sorted(fromWeb.headers));
    expect(fromNode.body.toString('latin1').replace(BOUNDARY, 'boundary')).toBe(
      fromWeb.body.toString('latin1').replace(BOUNDARY, 'boundary'),
    );
  });
});

describe('a request target or Host that makes no URL', () => {
  it.each([
    ['a backslash in the path', { path: '/fruits\\..' }, 'Backslash in request path'],
    ['a Host with a space', { path: '/fruits', headers: { host: 'a b' } }, 'Invalid URL'],
  ])('is refused before any stage with 400 problem JSON: %s', async (_name, exchanged, detail) => {
    const answer = await exchange(direct.port, exchanged);
    expect(answer.status).toBe(400);
    expect(answer.headers).toEqual(
      expect.arrayContaining([['content-type', 'application/problem+json;charset=UTF-8']]),
    );
    expect(JSON.parse(answer.body.toString())).toEqual({
      type: 'urn:rxrest:problem:malformed-path',
      title: 'Bad Request',
      status: 400,
      detail: `The request target cannot be read: ${detail}`,
      code: 'RXREST_MALFORMED_PATH',
    });
  });
});
