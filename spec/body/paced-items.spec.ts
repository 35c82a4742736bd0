// A body of items sent a few bytes at a time, over a real socket: the server's CPU grows with an item's length, not
// its square, in every format; a poisoning key cut across chunks is still refused. CPU is compared between two
// bodies of the same size sent the same way, never against a clock, so a loaded machine slows both alike.
import { request } from 'node:http';
import { count, lastValueFrom } from 'rxjs';
import { Body, Consumes, Multi, Path, POST, RestApplication, type RunningServer } from '../../lib';
import { within } from '../support/until';

@Path('paced')
class PacedResource {
  @POST
  @Consumes('application/x-ndjson', 'application/json-seq', 'application/json', 'text/event-stream')
  async count(@Body() rows: Multi<unknown>): Promise<{ count: number }> {
    return { count: await lastValueFrom(rows.pipe(count())) };
  }
}

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [PacedResource],
    overrides: { 'framework.http.limits.max-stream-item-size': '8M' },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

interface Reply {
  readonly status: number;
  readonly body: string;
  /** The CPU this process spent (server and client) from the first byte sent to the end of the answer, in ms. */
  readonly cpu: number;
}

/** `text` in pieces of `size` characters. */
function cut(text: string, size: number): string[] {
  return Array.from({ length: Math.ceil(text.length / size) }, (_, n) => text.slice(n * size, (n + 1) * size));
}

/** Writes each chunk after a turn of the event loop, or after `pause` ms: the server reads them one by one. */
function send(type: string, chunks: readonly string[], pause?: number): Promise<Reply> {
  const before = process.cpuUsage();
  const reply = new Promise<Reply>((resolve, reject) => {
    const req = request(`${server.url}/paced`, { method: 'POST', headers: { 'Content-Type': type } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const { user, system } = process.cpuUsage(before);
        resolve({ status: res.statusCode ?? 0, body: text, cpu: (user + system) / 1000 });
      });
    });
    req.on('error', reject);
    let at = 0;
    const write = () => {
      if (at === chunks.length) return void req.end();
      req.write(chunks[at++]);
      if (pause === undefined) setImmediate(write);
      else setTimeout(write, pause);
    };
    write();
  });
  return within(reply, `the answer to a ${type} body`, 120_000);
}

const ITEM = 512 * 1024;
const CHUNK = 64;

/** Each format: its media type, and a body of `n` items of text made whole by it, `CHUNK` characters each. */
const FORMATS: [string, string, (n: number, item: string) => string][] = [
  ['NDJSON', 'application/x-ndjson', (n, item) => `"${item}"\n`.repeat(n)],
  ['JSON text sequences', 'application/json-seq', (n, item) => `\x1e"${item}"\n`.repeat(n)],
  ['a JSON array', 'application/json', (n, item) => `[${Array(n).fill(`"${item}"`).join(',')}]`],
  ['server-sent events', 'text/event-stream', (n, item) => `data: "${item}"\n\n`.repeat(n)],
];

describe('a body of items sent a few bytes at a time', () => {
  it.each(FORMATS)(
    'costs the server about as much CPU for one 512 KB item of %s as for 8,192 small ones, both in 64-byte chunks',
    async (_name, type, body) => {
      const framing = body(1, '').length;
      const small = cut(body(ITEM / CHUNK, 'b'.repeat(CHUNK - framing)), CHUNK);
      const long = cut(body(1, 'a'.repeat(ITEM - framing)), CHUNK);
      // The first body warms the code both take.
      await send(type, small);
      const many = await send(type, small);
      const one = await send(type, long);
      expect([many.status, many.body, one.status, one.body]).toEqual([200, '{"count":8192}', 200, '{"count":1}']);
      // Each chunk searched and tested alone, the long item costs about what the small ones do (less: one item to
      // parse, not 8,192). Each chunk searching all that was held cost it 9 to 15 times as much.
      expect(one.cpu).toBeLessThan(4 * many.cpu);
    },
    120_000,
  );

  it('costs about as much CPU for 4 MB of SSE lines ended by \\r alone as by \\n, in 64 KB chunks', async () => {
    const type = 'text/event-stream';
    const lines = (end: string) => cut(end.repeat(8 * ITEM), 64 * 1024);
    // The first bodies warm the code each takes.
    await send(type, lines('\n'));
    await send(type, lines('\r'));
    const lf = await send(type, lines('\n'));
    const cr = await send(type, lines('\r'));
    expect([lf.status, cr.status]).toEqual([200, 200]);
    // About twice (an event ends at each); the SSE parser fed a whole chunk searched it to its end for the other line
    // ending at each line: 20 to 25 times.
    expect(cr.cpu).toBeLessThan(7 * lf.cpu);
  });

  it('refuses a poisoning key cut across chunks of NDJSON, or in a chunk before the one that ends its line', async () => {
    for (const [key, ...chunks] of [
      ['__proto__', '{"a":1}\n{"__pro', 'to__":{"polluted":1}}\n'],
      ['__proto__', '{"a":1}\n{"\\', 'u005f_proto__":{"polluted":1}}\n'],
      ['__proto__', '{"a":1}\n{"_', '_pr', 'oto', '__', '":{"polluted":1}}\n'],
      ['__proto__', '{"a":1}\n', '{"__proto__":{"polluted":1},"b":"', 'cc', 'c"}\n'],
      ['constructor.prototype', '{"a":1}\n{"cons', 'tructor":{"prototype":{"polluted":1}}}\n'],
    ]) {
      // Apart in time, so that the server reads them apart.
      const reply = await send('application/x-ndjson', chunks, 50);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({
        code: 'RXREST_FORBIDDEN_PROPERTY',
        detail: `Line 2 of the request body contains the forbidden key "${key}"`,
      });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
