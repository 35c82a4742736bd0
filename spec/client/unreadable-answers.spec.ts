// A 200 whose body the client cannot read (a proxy's HTML page labelled JSON, a broken line, a poisoned key), over a
// real socket: the call fails with ResponseProcessingException, the answer's fault, and not with the
// BadRequestException of the readers' 400 problem, which would tell the caller that the server refused its request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import {
  BadRequestException,
  GET,
  Multi,
  Path,
  Produces,
  ResponseProcessingException,
  RestClient,
  RestStreamElementType,
} from '../../lib/client';
import { within } from '../support/until';

class Fruit {
  name = '';
}

@Path('answers')
class Answers {
  @GET @Path('html') @Produces('application/json') one(): Fruit {
    throw new Error('a contract');
  }

  @GET @Path('lines') @Produces('application/x-ndjson') lines(): Multi<Fruit> {
    throw new Error('a contract');
  }

  @GET
  @Path('events')
  @Produces('text/event-stream')
  @RestStreamElementType('application/json')
  events(): Multi<Fruit> {
    throw new Error('a contract');
  }

  @GET @Path('poisoned') @Produces('application/json') poisoned(): Fruit {
    throw new Error('a contract');
  }

  @GET @Path('portal') @Produces('application/json') portal(): Fruit {
    throw new Error('a contract');
  }

  @GET @Path('bytes') @Produces('application/json') bytes(): Fruit {
    throw new Error('a contract');
  }

  @GET @Path('vendor') @Produces('application/json') vendor(): Fruit {
    throw new Error('a contract');
  }
}

const BODIES: Record<string, [string, string]> = {
  '/answers/html': ['application/json', '<html><body>Bad gateway</body></html>'],
  '/answers/lines': ['application/x-ndjson', '{"name":"a"}\n{"name":\n'],
  '/answers/events': ['text/event-stream', 'data: {"name":"a"}\n\ndata: {oops\n\n'],
  '/answers/poisoned': ['application/json', '{"name":"x","\\u005f_proto__":{"admin":true}}'],
  '/answers/portal': ['text/html; charset=utf-8', '<html><body>Sign in to the Wi-Fi</body></html>'],
  '/answers/bytes': ['application/octet-stream', '\u0000\u0001'],
  '/answers/vendor': ['application/vnd.fruits+json', '{"name":"kiwi"}'],
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const [type, body] = BODIES[req.url ?? ''] ?? ['text/plain', ''];
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await within(new Promise((resolve) => server.close(resolve)), 'the server to close', 5000);
});

async function failure(call: Promise<unknown>): Promise<unknown> {
  return within(
    call.then(
      () => new Error('the call succeeded'),
      (error: unknown) => error,
    ),
    'the call to fail',
    5000,
  );
}

describe('answers the client cannot read', () => {
  const client = () => RestClient.create(Answers, { baseUrl });

  it.each([
    [
      'an HTML page labelled JSON',
      () => firstValueFrom(client().one()),
      'application/json',
      'is not valid JSON: Unexpected token',
    ],
    [
      'an NDJSON line cut short',
      () => lastValueFrom(client().lines().pipe(toArray())),
      'application/x-ndjson',
      'is not valid JSON',
    ],
    [
      'an SSE event of broken JSON',
      () => lastValueFrom(client().events().pipe(toArray())),
      'text/event-stream',
      'is not valid JSON',
    ],
    [
      'a poisoned key',
      () => firstValueFrom(client().poisoned()),
      'application/json',
      'contains the forbidden key "__proto__"',
    ],
  ] as const)('fails on %s with the answer named, not with a 400', async (_name, call, type, reason) => {
    const error = await failure(call());
    expect(error).toBeInstanceOf(ResponseProcessingException);
    expect(error).not.toBeInstanceOf(BadRequestException);
    const processing = error as ResponseProcessingException;
    expect(processing.status).toBe(200);
    expect(processing.contentType).toBe(type);
    expect(processing.message).toContain(`The answer (200 ${type}) ${reason}`);
    expect(processing.cause).toBeInstanceOf(BadRequestException);
  });

  it.each([
    ['an HTML page', () => firstValueFrom(client().portal()), 'text/html; charset=utf-8'],
    ['bytes', () => firstValueFrom(client().bytes()), 'application/octet-stream'],
  ] as const)('fails on %s where the method produces JSON, never emitting it as a Fruit', async (_name, call, type) => {
    const error = await failure(call());
    expect(error).toBeInstanceOf(ResponseProcessingException);
    expect((error as Error).message).toBe(
      `The answer (200 ${type}) is none of the media types the call accepts (application/json)`,
    );
  });

  it('reads a JSON media type of its own where the method produces JSON', async () => {
    expect(await within(firstValueFrom(client().vendor()), 'the vendor JSON', 5000)).toEqual({ name: 'kiwi' });
  });
});
