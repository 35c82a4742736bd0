// Each item of a body of items is checked against its declared type as a single body is, over a real socket: an
// item of the wrong kind (`123`, `{}`, `null` where strings are declared) is a 400 problem naming the item before the
// answer has started, and ends an answer already streaming as a failing stream ends (SSE: `event: error`); the
// handler never sees it.
import { request, type IncomingMessage } from 'node:http';
import { lastValueFrom, map, toArray } from 'rxjs';
import { z } from 'zod';
import {
  Body,
  Consumes,
  Multi,
  Path,
  POST,
  Produces,
  RestApplication,
  RestStreamElementType,
  multi,
  type RunningServer,
} from '../../lib';

class Plain {
  name = '';
  shout(): string {
    return this.name.toUpperCase();
  }
}

class Checked {
  static readonly schema = z.object({ name: z.string().min(2) });
  name = '';
}

@Path('typed')
class TypedItems {
  /** The samples' /streams/uppercase: strings in, strings upper-cased out, line by line. */
  @POST
  @Path('uppercase')
  @Consumes('application/x-ndjson', 'application/json', 'text/event-stream')
  @Produces('application/x-ndjson', 'text/event-stream')
  @RestStreamElementType('application/json')
  uppercase(@Body({ type: String }) words: Multi<string>): Multi<string> {
    return multi(words.pipe(map((word) => word.toUpperCase())));
  }

  /** The same, written not to fail on what is no string: it shows what reached it. */
  @POST
  @Path('tolerant')
  @Consumes('application/x-ndjson')
  @Produces('application/x-ndjson', 'text/event-stream')
  @RestStreamElementType('application/json')
  tolerant(@Body({ type: String }) words: Multi<string>): Multi<string> {
    return multi(words.pipe(map((word) => (typeof word === 'string' ? word.toUpperCase() : `a ${typeof word}`))));
  }

  @POST
  @Path('numbers')
  @Consumes('application/x-ndjson', 'application/json', 'text/event-stream')
  async numbers(@Body({ type: Number }) numbers: Multi<number>): Promise<{ sum: number }> {
    return { sum: (await lastValueFrom(numbers.pipe(toArray()))).reduce((sum, n) => sum + n.valueOf(), 0) };
  }

  @POST
  @Path('flags')
  @Consumes('application/x-ndjson')
  async flags(@Body({ type: Boolean }) flags: Multi<boolean>): Promise<{ on: number }> {
    return { on: (await lastValueFrom(flags.pipe(toArray()))).filter((flag) => flag === true).length };
  }

  @POST
  @Path('plain')
  @Consumes('application/x-ndjson')
  async plain(@Body({ type: Plain }) rows: Multi<Plain>): Promise<string[]> {
    return lastValueFrom(
      rows.pipe(
        map((row) => row.shout()),
        toArray(),
      ),
    );
  }

  @POST
  @Path('checked')
  @Consumes('application/x-ndjson')
  async checked(@Body({ type: Checked }) rows: Multi<Checked>): Promise<string[]> {
    return lastValueFrom(
      rows.pipe(
        map((row) => row.name),
        toArray(),
      ),
    );
  }

  @POST
  @Path('schema')
  @Consumes('application/x-ndjson')
  async schema(
    @Body({ stream: true, schema: z.number().int().nullable() }) rows: Multi<number | null>,
  ): Promise<unknown[]> {
    return lastValueFrom(rows.pipe(toArray()));
  }
}

let server: RunningServer;
beforeAll(async () => {
  server = await RestApplication.build({ classes: [TypedItems] }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

async function post(path: string, body: string, contentType = 'application/x-ndjson') {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text };
}

function problemOf(reply: { status: number; type: string | null; text: string }): Record<string, unknown> {
  expect(reply.status).toBe(400);
  expect(reply.type).toContain('application/problem+json');
  return JSON.parse(reply.text) as Record<string, unknown>;
}

describe('items declared as strings', () => {
  it("refuses printf '123\\n{}\\nnull\\n' with a 400 problem naming line 1, before any answer", async () => {
    const problem = problemOf(await post('/typed/uppercase', '123\n{}\nnull\n'));
    expect(problem).toMatchObject({ code: 'RXREST_MALFORMED_BODY' });
    expect(problem.detail).toBe('Line 1 of the request body is not a string');
  });

  it.each([
    ['an object', '{}'],
    ['null', 'null'],
    ['an array', '["a"]'],
    ['a boolean', 'true'],
  ])('refuses %s as the first item', async (_name, item) => {
    const problem = problemOf(await post('/typed/uppercase', `${item}\n"b"\n`));
    expect(problem.detail).toMatch(/^Line 1 of the request body /);
  });

  it('names the item by index in a JSON array', async () => {
    const problem = problemOf(await post('/typed/uppercase', '[7]', 'application/json'));
    expect(problem.detail).toBe('Item 0 of the request body is not a string');
  });

  it('still answers strings, and takes SSE data as the text it is', async () => {
    expect(await post('/typed/uppercase', '"apple"\n"crème"\n')).toMatchObject({
      status: 200,
      text: '"APPLE"\n"CRÈME"\n',
    });
    expect(await post('/typed/uppercase', 'data: 123\n\ndata: {}\n\n', 'text/event-stream')).toMatchObject({
      status: 200,
      text: '"123"\n"{}"\n',
    });
  });

  it('ends an NDJSON answer already streaming as a failing stream ends when a later item is no string: cut', async () => {
    const { res, body, complete } = await duplex('application/x-ndjson', '"a"\n', '"b"\n5\n"c"\n');
    expect(res.statusCode).toBe(200);
    expect(await complete).toBe(false);
    expect(body()).toBe('"A"\n"B"\n');
    expect(body()).not.toContain('a number');
  });

  it('ends an SSE answer already streaming with event: error when a later item is no string', async () => {
    const { res, body, complete } = await duplex('text/event-stream', '"a"\n', 'null\n"c"\n');
    expect(res.statusCode).toBe(200);
    await complete;
    expect(body()).toContain('data:"A"\n\n');
    expect(body()).toMatch(/event:error\ndata:stream failed\n\n$/);
    expect(body()).not.toContain('"C"');
    expect(body()).not.toContain('a object');
  });
});

describe('items declared as numbers, booleans, classes and schemas', () => {
  it('refuses a number item that is a string, null or an object, naming its line', async () => {
    expect(await post('/typed/numbers', '1\n2\n')).toMatchObject({ status: 200, text: '{"sum":3}' });
    for (const [body, line] of [
      ['1\n"2"\n', 2],
      ['1\n\nnull\n', 3],
      ['{}\n', 1],
    ] as const) {
      const problem = problemOf(await post('/typed/numbers', body));
      expect(problem.detail).toMatch(new RegExp(`^Line ${line} of the request body is (null, )?not a number$`));
    }
    expect(problemOf(await post('/typed/numbers', 'data: null\n\n', 'text/event-stream')).detail).toMatch(
      /^Item 0 of the request body is null, not a number$/,
    );
  });

  it('refuses a boolean item that is not one', async () => {
    expect(await post('/typed/flags', 'true\nfalse\ntrue\n')).toMatchObject({ status: 200, text: '{"on":2}' });
    expect(problemOf(await post('/typed/flags', 'true\n"false"\n')).detail).toMatch(
      /^Line 2 of the request body is not a boolean$/,
    );
    expect(problemOf(await post('/typed/flags', 'null\n')).detail).toMatch(
      /^Line 1 of the request body is null, not a boolean$/,
    );
  });

  it('refuses a class item that is no object, or null; binds the others to instances', async () => {
    expect(await post('/typed/plain', '{"name":"a"}\n{"name":"b"}\n')).toMatchObject({
      status: 200,
      text: '["A","B"]',
    });
    for (const item of ['5', '"x"', '[]', 'null']) {
      const problem = problemOf(await post('/typed/plain', `{"name":"a"}\n${item}\n`));
      expect(problem.detail).toMatch(/^Line 2 of the request body is (null, )?not an object \(Plain\)$/);
    }
  });

  it('validates a class item by its schema, and lets a schema say whether null is allowed', async () => {
    expect(problemOf(await post('/typed/checked', '{"name":"ab"}\nnull\n'))).toMatchObject({
      code: 'RXREST_VALIDATION_FAILED',
      detail: 'Line 2 of the request body is invalid',
    });
    expect(problemOf(await post('/typed/checked', '{"name":"a"}\n'))).toMatchObject({
      code: 'RXREST_VALIDATION_FAILED',
    });
    expect(await post('/typed/schema', '1\nnull\n3\n')).toMatchObject({ status: 200, text: '[1,null,3]' });
    expect(problemOf(await post('/typed/schema', '1\n1.5\n'))).toMatchObject({
      code: 'RXREST_VALIDATION_FAILED',
      detail: 'Line 2 of the request body is invalid',
    });
  });
});

/**
 * POSTs `first` to /typed/tolerant, waits for the first line of the answer (so it has started), then sends `rest`:
 * the answer, its body so far, and whether it ended complete (false: cut).
 */
async function duplex(accept: string, first: string, rest: string) {
  const req = request(`${server.url}/typed/tolerant`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', accept },
  });
  req.on('error', () => undefined);
  const response = new Promise<IncomingMessage>((resolve) => req.once('response', resolve));
  req.write(first);
  const res = await response;
  res.setEncoding('utf8');
  let text = '';
  res.on('error', () => undefined);
  const complete = new Promise<boolean>((resolve) => res.once('close', () => resolve(res.complete)));
  const started = new Promise<void>((resolve) =>
    res.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('A')) resolve();
    }),
  );
  await started;
  req.end(rest);
  return { res, body: () => text, complete };
}
