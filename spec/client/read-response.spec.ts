// How the client reads answers by Content-Type, with answers made in process (a fetch double) and sent in small
// chunks, so that items, lines, records and events split across chunk boundaries are put back together.
import { lastValueFrom, toArray } from 'rxjs';
import { GET, Path, Produces, RestClient, RestStreamElementType, type Multi } from '../../lib/client';
import { JsonArrayItems } from '../../lib/json/json-array-items';

/** A body sent `size` bytes at a time. */
function chunked(text: string | Uint8Array, size: number): ReadableStream<Uint8Array> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

@Path('things')
class Things {
  @GET
  @Produces('application/json', 'application/json-seq', 'application/x-ndjson')
  items(): Multi<unknown> {
    throw new Error('a contract');
  }

  @GET
  @Path('events')
  @Produces('text/event-stream')
  @RestStreamElementType('application/json')
  numbers(): Multi<number> {
    throw new Error('a contract');
  }

  @GET
  @Path('bytes')
  @Produces('application/octet-stream')
  bytes(): Uint8Array {
    throw new Error('a contract');
  }
}

function clientAnswering(body: string | Uint8Array, contentType: string, size: number) {
  return RestClient.create(Things, {
    baseUrl: 'http://things.test',
    fetch: async () => new Response(chunked(body, size), { headers: { 'Content-Type': contentType } }),
  });
}

const tricky = [
  { text: 'a,b]}', nested: [1, [2, { x: '"quoted" \\ ]' }]] },
  'plain, string',
  42,
  null,
  true,
  { empty: [] },
];

describe('reading answers', () => {
  it.each([1, 2, 7, 64])(
    'reads a JSON array item by item, in chunks of %i bytes, strings holding brackets and escapes',
    async (size) => {
      const items = await lastValueFrom(
        clientAnswering(JSON.stringify(tricky, null, 1), 'application/json', size)
          .items()
          .pipe(toArray()),
      );
      expect(items).toEqual(tricky);
    },
  );

  it('reads JSON text sequences record by record and NDJSON line by line, split anywhere', async () => {
    const seq = tricky.map((item) => `\x1e${JSON.stringify(item)}\n`).join('');
    expect(await lastValueFrom(clientAnswering(seq, 'application/json-seq', 3).items().pipe(toArray()))).toEqual(
      tricky,
    );
    const ndjson = `${tricky.map((item) => JSON.stringify(item)).join('\n')}\n\n`;
    expect(
      await lastValueFrom(clientAnswering(ndjson, 'application/x-ndjson; charset=utf-8', 5).items().pipe(toArray())),
    ).toEqual(tricky);
  });

  it('reads a long record sent a few bytes at a time for about the CPU of as many bytes of short records', async () => {
    // 512 K characters in 64-byte chunks: 8,192 reads, each of which searched all that was held, cost some 10 times
    // what the same bytes of short records cost. CPU is compared, not a clock: a loaded machine slows both alike.
    const long = 'a'.repeat(512 * 1024);
    const short = 'a'.repeat(60);
    const cpuOf = async (body: string, type: string, count: number) => {
      const before = process.cpuUsage();
      const items = await lastValueFrom(clientAnswering(body, type, 64).items().pipe(toArray()));
      const { user, system } = process.cpuUsage(before);
      expect(items).toHaveLength(count);
      return user + system;
    };
    for (const [start, type] of [
      ['', 'application/x-ndjson'],
      ['\x1e', 'application/json-seq'],
    ] as const) {
      const longBody = `${start}"${long}"\n`;
      const shortBody = `${start}"${short}"\n`.repeat(Math.round(longBody.length / (short.length + 3 + start.length)));
      const shortCount = shortBody.length / (short.length + 3 + start.length);
      await cpuOf(longBody, type, 1);
      await cpuOf(shortBody, type, shortCount);
      const [longCpu, shortCpu] = [await cpuOf(longBody, type, 1), await cpuOf(shortBody, type, shortCount)];
      expect(longCpu).toBeLessThan(4 * shortCpu);
    }
  });

  it('parses every SSE data field as JSON for a JSON element type, with ids and event names in events mode', async () => {
    const sse = ': comment\n\nid: 1\nevent: n\ndata: 1\n\nid: 2\ndata: 2\n\nretry: 1000\n\n';
    expect(await lastValueFrom(clientAnswering(sse, 'text/event-stream', 4).numbers().pipe(toArray()))).toEqual([1, 2]);
    const events = await lastValueFrom(clientAnswering(sse, 'text/event-stream', 4).$events.numbers().pipe(toArray()));
    expect(events).toEqual([
      { data: 1, id: '1', event: 'n' },
      { data: 2, id: '2', event: undefined },
    ]);
  });

  it('emits other media types as byte chunks', async () => {
    const bytes = Uint8Array.from({ length: 10 }, (_, i) => i);
    const chunks = await lastValueFrom(clientAnswering(bytes, 'application/octet-stream', 4).bytes().pipe(toArray()));
    expect(chunks.map((chunk) => [...chunk])).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
  });

  it('fails the Observable on a malformed item, and on an array cut before its end', async () => {
    await expect(
      lastValueFrom(clientAnswering('[{"a":1},{"a":', 'application/json', 4).items().pipe(toArray())),
    ).rejects.toThrow('the JSON array ended before its closing bracket');
    await expect(
      lastValueFrom(clientAnswering('{"a":1}\n{oops}\n', 'application/x-ndjson', 4).items().pipe(toArray())),
    ).rejects.toThrow();
  });
});

describe('JsonArrayItems', () => {
  it('keeps only the unfinished item, not the array read so far', () => {
    const items = new JsonArrayItems();
    const seen: string[] = [];
    items.push('[{"a":1},', (item) => seen.push(item));
    items.push('{"b":"', (item) => seen.push(item));
    items.push('2"}]', (item) => seen.push(item));
    expect(seen).toEqual(['{"a":1}', '{"b":"2"}']);
    expect(items.end()).toBeUndefined();
  });

  it('gives back a body that is not an array whole', () => {
    const items = new JsonArrayItems();
    items.push(' {"a"', () => undefined);
    items.push(':1}', () => undefined);
    expect(items.end()).toBe(' {"a":1}');
  });
});
