// What a broken or hostile server can make a REST client hold: answers that never end, or one item that never
// ends, served over a real socket. The call must fail with a clear error once past its limits, and let go of the
// connection, instead of reading (and holding) on until the process runs out of memory.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import {
  GET,
  InternalServerErrorException,
  Path,
  Produces,
  ResponseTooLargeException,
  RestClient,
  RestStreamElementType,
  // As a value: a method's Multi return type is what makes the client read a JSON array item by item.
  Multi,
} from '../../lib/client';
import { until, within } from '../support/until';

@Path('hostile')
class Hostile {
  @GET @Path('json') @Produces('application/json') json(): { name: string } {
    throw new Error('a contract');
  }

  @GET @Path('text') @Produces('text/plain') text(): string {
    throw new Error('a contract');
  }

  @GET @Path('ndjson') @Produces('application/x-ndjson') lines(): Multi<string> {
    throw new Error('a contract');
  }

  @GET @Path('array') @Produces('application/json') items(): Multi<string> {
    throw new Error('a contract');
  }

  @GET @Path('sse') @Produces('text/event-stream') @RestStreamElementType('application/json') events(): Multi<string> {
    throw new Error('a contract');
  }

  @GET
  @Path('odd-sse')
  @Produces('text/event-stream')
  @RestStreamElementType('application/json')
  oddEvents(): Multi<string> {
    throw new Error('a contract');
  }

  @GET @Path('error') @Produces('application/json') failing(): string {
    throw new Error('a contract');
  }
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');
/** The sockets the server saw closed, by path: a call that gave up must let go of its connection. */
const closed = new Set<string>();
let server: Server;
let baseUrl: string;

/** Writes `head`, then the letter a for ever (as fast as the client reads), until the client goes. */
function endless(res: ServerResponse, status: number, contentType: string, head: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.write(head);
  const more = () => {
    while (!res.destroyed && res.write(CHUNK));
  };
  res.on('drain', more);
  more();
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  res.on('close', () => closed.add(path));
  switch (path) {
    case '/hostile/json': // declared up front: refused before a byte of the body is read
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      return void res.write('{"name":"');
    case '/hostile/text':
      return endless(res, 200, 'text/plain', '');
    case '/hostile/ndjson':
      return endless(res, 200, 'application/x-ndjson', '"first"\n"');
    case '/hostile/array':
      return endless(res, 200, 'application/json', '["first","');
    case '/hostile/sse':
      return endless(res, 200, 'text/event-stream', 'data: "first"\n\ndata: "');
    case '/hostile/odd-sse': // a field SSE does not know and a retry that is no number: both ignored by the format
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.end('foo: bar\nretry: soon\ndata: "first"\n\n: a comment\nvendor-field: 1\ndata: "second"\n\n');
    case '/hostile/error':
      return endless(res, 500, 'application/problem+json', '{"title":"');
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await within(new Promise((resolve) => server.close(resolve)), 'the hostile server to close', 5000);
});

const small = () =>
  RestClient.create(Hostile, { baseUrl, limits: { maxBodySize: 1024 * 1024, maxItemSize: 256 * 1024 } });

async function failure(call: Promise<unknown>, what: string): Promise<unknown> {
  return within(
    call.then(
      () => new Error('the call succeeded'),
      (error: unknown) => error,
    ),
    what,
    10_000,
  );
}

describe('RestClient answer limits', () => {
  it('refuses a whole answer whose Content-Length is past maxBodySize, before reading it', async () => {
    const error = await failure(firstValueFrom(small().json()), 'the 50 MB JSON answer to be refused');
    expect(error).toBeInstanceOf(ResponseTooLargeException);
    expect((error as Error).message).toBe('The answer is larger than maxBodySize (1048576 bytes)');
    await until(() => closed.has('/hostile/json') || undefined, 'the JSON answer socket to close', 5000);
  });

  it.each([
    ['a text answer that never ends', 'text', 'The answer is larger than maxBodySize (1048576 bytes)'],
    [
      'an NDJSON line that never ends',
      'ndjson',
      'An item of the answer is larger than maxItemSize (262144 characters)',
    ],
    [
      'a JSON array item that never ends',
      'array',
      'An item of the answer is larger than maxItemSize (262144 characters)',
    ],
    ['an SSE event without an end', 'sse', 'An item of the answer is larger than maxItemSize (262144 characters)'],
  ] as const)('fails a call reading %s, and lets go of its connection', async (_name, path, message) => {
    const client = small();
    const call = {
      text: () => client.text(),
      ndjson: () => client.lines(),
      array: () => client.items(),
      sse: () => client.events(),
    }[path]();
    const error = await failure(lastValueFrom(call.pipe(toArray())), `the endless ${path} answer to fail`);
    expect(error).toBeInstanceOf(ResponseTooLargeException);
    expect((error as Error).message).toBe(message);
    await until(() => closed.has(`/hostile/${path}`) || undefined, `the ${path} socket to close`, 5000);
  });

  it('reads past SSE lines the format ignores (an unknown field, a retry that is no number), well under maxItemSize', async () => {
    const events = await within(lastValueFrom(small().oddEvents().pipe(toArray())), 'the odd SSE answer');
    expect(events).toEqual(['first', 'second']);
  });

  it('fails a call on an SSE event past maxItemSize that arrives whole in one chunk', async () => {
    const event = `data: "${'a'.repeat(300 * 1024)}"\n\n`;
    const client = RestClient.create(Hostile, {
      baseUrl,
      limits: { maxBodySize: 1024 * 1024, maxItemSize: 256 * 1024 },
      fetch: async () =>
        new Response(new TextEncoder().encode(`data: "first"\n\n${event}`), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    });
    const error = await failure(lastValueFrom(client.events().pipe(toArray())), 'the whole-chunk SSE event to fail');
    expect(error).toBeInstanceOf(ResponseTooLargeException);
    expect((error as Error).message).toBe('An item of the answer is larger than maxItemSize (262144 characters)');
  });

  it('makes the status exception of an error whose body never ends, without its body', async () => {
    const error = await failure(firstValueFrom(small().failing()), 'the endless 500 to fail');
    expect(error).toBeInstanceOf(InternalServerErrorException);
    expect((error as InternalServerErrorException).problem).toBeUndefined();
    await until(() => closed.has('/hostile/error') || undefined, 'the error socket to close', 5000);
  });

  it('bounds answers by default (10 MiB whole, 1 Mi characters an item)', async () => {
    const client = RestClient.create(Hostile, { baseUrl });
    const whole = await failure(firstValueFrom(client.text()), 'the endless text to fail at the default limit');
    expect((whole as Error).message).toBe('The answer is larger than maxBodySize (10485760 bytes)');
    const item = await failure(lastValueFrom(client.lines()), 'the endless line to fail at the default limit');
    expect((item as Error).message).toBe('An item of the answer is larger than maxItemSize (1048576 characters)');
  });
});
