// Prototype-poisoning keys refused by every JSON reader, over real sockets, however the key is spelled: JSON escapes
// (`"\u005f_proto__"`) name the same key once parsed, so a check of the raw text alone is walked past.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, lastValueFrom, of, toArray } from 'rxjs';
import {
  Body,
  Consumes,
  GET,
  JsonValue,
  Multi,
  OnTextMessage,
  PartType,
  Path,
  POST,
  Produces,
  RestForm,
  WebSocketEndpoint,
  nodeWebSocket,
  type RunningServer,
} from '../../lib';
import { RestClient, SocketClient } from '../../lib/client';
import { buildApp } from '../support/app';
import { openSocket } from '../support/ws-client';

class Fruit {
  name = '';
  description = '';
}

@Path('guard')
class GuardResource {
  @POST
  @Path('fruits')
  @Consumes('application/json')
  add(fruit: Fruit): { name: string } {
    return { name: fruit.name };
  }

  @POST
  @Path('values')
  @Consumes('application/json')
  value(@Body({ type: JsonValue }) value: JsonValue): { kind: string } {
    return { kind: typeof value };
  }

  @POST
  @Path('items')
  @Consumes('application/x-ndjson', 'application/json', 'application/json-seq', 'text/event-stream')
  async items(@Body() rows: Multi<unknown>): Promise<{ count: number }> {
    return { count: (await lastValueFrom(rows.pipe(toArray()))).length };
  }

  @POST
  @Path('fruit-items')
  @Consumes('application/x-ndjson')
  async fruitItems(@Body({ type: Fruit }) fruits: Multi<Fruit>): Promise<{ count: number }> {
    return { count: (await lastValueFrom(fruits.pipe(toArray()))).length };
  }

  @POST
  @Path('parts')
  @Consumes('multipart/form-data')
  part(@RestForm() @PartType('application/json') fruit: Fruit): { name: string } {
    return { name: fruit.name };
  }
}

@WebSocketEndpoint('/guard/socket')
class GuardSocket {
  @OnTextMessage
  take(fruit: Fruit): string {
    return `took ${fruit.name}`;
  }
}

/** What the REST client of these tests calls: a server of its own answering whatever `answer` holds. */
@Path('answers')
class AnswerApi {
  @GET
  @Produces('application/json')
  one(): Fruit {
    return new Fruit();
  }

  @GET
  @Path('lines')
  @Produces('application/x-ndjson')
  lines(): Multi<Fruit> {
    throw new Error('a client interface');
  }
}

/** Sends back each text message as it came. */
@WebSocketEndpoint('/guard/echo')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

/** The same socket as its client sees it: JSON messages in and out (so the client parses what comes back). */
@WebSocketEndpoint('/guard/echo')
class FruitEcho {
  @OnTextMessage
  echo(fruit: Fruit): Fruit {
    return fruit;
  }
}

/** The spellings of one poisoned body: each names `__proto__` or `constructor` once parsed. */
const POISONED: readonly [string, string][] = [
  ['"__proto__" as it is', '{"name":"x","__proto__":{"polluted":1}}'],
  ['"\\u005f_proto__"', '{"name":"x","\\u005f_proto__":{"polluted":1}}'],
  [
    '"\\u005F\\u005Fproto\\u005f\\u005F", nested',
    '{"name":"x","a":[{"\\u005F\\u005Fproto\\u005f\\u005F":{"polluted":1}}]}',
  ],
  ['"\\u0063onstructor" holding a prototype', '{"name":"x","\\u0063onstructor":{"prototype":{"polluted":1}}}'],
  ['"constru\\u0063tor" nested in an array', '[{"b":{"constru\\u0063tor":{"prototype":{"polluted":1}}}}]'],
];

function unpolluted(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
}

let server: RunningServer;

beforeAll(async () => {
  server = await buildApp([GuardResource, GuardSocket]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

async function post(path: string, contentType: string, body: string | FormData) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    ...(typeof body === 'string' ? { headers: { 'content-type': contentType } } : {}),
    body,
  });
  return { status: response.status, problem: (await response.json()) as Record<string, unknown> };
}

describe('JSON bodies', () => {
  it.each(POISONED)('refuses %s with the 400 problem RXREST_FORBIDDEN_PROPERTY', async (_name, body) => {
    for (const path of ['/guard/fruits', '/guard/values']) {
      const reply = await post(path, 'application/json', body);
      expect(reply).toMatchObject({ status: 400, problem: { code: 'RXREST_FORBIDDEN_PROPERTY', status: 400 } });
      expect(reply.problem.detail).toMatch(
        /^The request body contains the forbidden key "(__proto__|constructor\.prototype)"$/,
      );
    }
    unpolluted();
  });

  it('names the key refused, whatever its spelling', async () => {
    const proto = await post('/guard/values', 'application/json', '{"\\u005f_proto__":{}}');
    expect(proto.problem.detail).toBe('The request body contains the forbidden key "__proto__"');
    const ctor = await post('/guard/values', 'application/json', '{"\\u0063onstructor":{"prototype":{}}}');
    expect(ctor.problem.detail).toBe('The request body contains the forbidden key "constructor.prototype"');
  });

  it('admits the same words where they are no such key: values, other keys, a constructor without a prototype', async () => {
    for (const body of [
      '{"name":"__proto__","description":"\\u005f_proto__ and constructor"}',
      '{"name":"x","proto":1,"__proto":2,"constructor":"a string"}',
      '{"name":"x","\\u0063onstructor":{"name":"Fruit"}}',
    ]) {
      const reply = await post('/guard/fruits', 'application/json', body);
      expect(reply.status).toBe(200);
    }
  });

  it('still tells a malformed body from a poisoned one', async () => {
    const reply = await post('/guard/values', 'application/json', '{"\\u005f_proto__":');
    expect(reply).toMatchObject({ status: 400, problem: { code: 'RXREST_MALFORMED_BODY' } });
    expect(reply.problem.detail).toMatch(/^The request body is not valid JSON: /);
  });
});

describe('bodies of many items', () => {
  const escaped = '{"\\u005f_proto__":{"polluted":1}}';
  const bodies: [string, string, string][] = [
    ['NDJSON', 'application/x-ndjson', `{"a":1}\n${escaped}\n{"a":2}\n`],
    ['a JSON array', 'application/json', `[{"a":1},${escaped},{"a":2}]`],
    ['a JSON text sequence', 'application/json-seq', `\x1e{"a":1}\n\x1e${escaped}\n`],
    ['server-sent events', 'text/event-stream', `data: {"a":1}\n\ndata: ${escaped}\n\n`],
  ];

  it.each(bodies)('refuses an escaped __proto__ item of %s with 400, naming the item', async (_name, type, body) => {
    const reply = await post('/guard/items', type, body);
    expect(reply).toMatchObject({ status: 400, problem: { code: 'RXREST_FORBIDDEN_PROPERTY' } });
    expect(reply.problem.detail).toMatch(
      /^(Line 2|Item 1) of the request body contains the forbidden key "__proto__"$/,
    );
    unpolluted();
  });

  it('refuses an escaped constructor.prototype item bound to a class', async () => {
    const reply = await post(
      '/guard/fruit-items',
      'application/x-ndjson',
      '{"name":"a"}\n{"name":"b","\\u0063onstructor":{"prototype":{"polluted":1}}}\n',
    );
    expect(reply).toMatchObject({
      status: 400,
      problem: {
        code: 'RXREST_FORBIDDEN_PROPERTY',
        detail: 'Line 2 of the request body contains the forbidden key "constructor.prototype"',
      },
    });
    unpolluted();
  });
});

describe('multipart JSON parts', () => {
  it('refuses a JSON part with an escaped __proto__ key: 400 naming the part and the key', async () => {
    const form = new FormData();
    form.append('fruit', new Blob(['{"name":"x","\\u005f_proto__":{"polluted":1}}'], { type: 'application/json' }));
    const reply = await post('/guard/parts', '', form);
    expect(reply).toMatchObject({ status: 400, problem: { code: 'RXREST_PART_UNREADABLE' } });
    expect(JSON.stringify(reply.problem.violations)).toContain('forbidden key \\"__proto__\\"');
    unpolluted();
  });
});

describe('WebSocket JSON messages', () => {
  it('closes with 1007 on a message with an escaped __proto__ key, the handler never called', async () => {
    const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/guard/socket`);
    await socket.opened;
    socket.socket.send('{"name":"x","\\u005f_proto__":{"polluted":1}}');
    expect(await socket.closed).toEqual({ code: 1007, reason: 'The message contains the forbidden key "__proto__"' });
    expect(socket.received).toEqual([]);
    unpolluted();
  });
});

describe('the REST client and the socket client', () => {
  let answer = '';
  let contentType = 'application/json';
  let other: Server;
  let otherUrl: string;

  beforeAll(async () => {
    other = createServer((_req, res) => res.writeHead(200, { 'content-type': contentType }).end(answer));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

  it('refuses an answer with an escaped __proto__ key, as one value and as an item of NDJSON', async () => {
    const client = RestClient.create(AnswerApi, { baseUrl: otherUrl });
    answer = '{"name":"x","\\u005f_proto__":{"polluted":1}}';
    contentType = 'application/json';
    await expect(firstValueFrom(client.one())).rejects.toThrow('forbidden key "__proto__"');
    answer = '{"name":"a"}\n{"name":"x","\\u0063onstructor":{"prototype":{"polluted":1}}}\n';
    contentType = 'application/x-ndjson';
    await expect(lastValueFrom(client.lines().pipe(toArray()))).rejects.toThrow(
      'forbidden key "constructor.prototype"',
    );
    unpolluted();
  });

  it('fails a socket connection whose server sends a message with an escaped __proto__ key', async () => {
    const running = await buildApp([EchoSocket]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const client = SocketClient.create(FruitEcho, { baseUrl: running.url, webSocket: nodeWebSocket });
      const poisoned = '{"name":"x","\\u005f_proto__":{"polluted":1}}';
      // A string goes out as the text it is: the echo server sends back these very bytes.
      await expect(firstValueFrom(client.connect('echo', { send: of(poisoned as unknown as Fruit) }))).rejects.toThrow(
        'forbidden key "__proto__"',
      );
      unpolluted();
    } finally {
      await running.close();
    }
  });
});
