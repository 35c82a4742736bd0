// Multipart bodies a stranger crafts, sent over a real socket: each is answered, and the server goes on serving.
import { readdirSync } from 'node:fs';
import {
  Consumes,
  MultipartFormDataInput,
  Path,
  POST,
  Produces,
  resolveConfig,
  RestApplication,
  RestForm,
  type RunningServer,
} from '../../lib';
import { listingOnce, tempDir } from '../support/temp-dir';

@Path('form')
class FormResource {
  @POST
  @Consumes('multipart/form-data')
  @Produces('application/json')
  one(@RestForm() note: string) {
    return { note };
  }

  @POST
  @Path('all')
  @Consumes('multipart/form-data')
  @Produces('application/json')
  all(input: MultipartFormDataInput) {
    return input.summaries();
  }
}

const dir = tempDir('mp-hostile');
const app = RestApplication.build({
  classes: [FormResource],
  config: resolveConfig({ overrides: { 'framework.http.body.uploads-directory': dir } }),
});
let server: RunningServer;

beforeAll(async () => {
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());
afterEach(async () => expect(await listingOnce(dir)).toEqual([]));

const BOUNDARY = 'XyZ';

function part(headers: string, value: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`, 'latin1'), Buffer.from(value), CRLF]);
}

const CRLF = Buffer.from('\r\n');
const END = Buffer.from(`--${BOUNDARY}--\r\n`);

async function post(path: string, ...parts: Buffer[]): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/form${path}`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: Buffer.concat([...parts, END]),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const stillServes = async () =>
  expect(await post('', part('Content-Disposition: form-data; name="note"', 'hi'))).toEqual({
    status: 200,
    body: { note: 'hi' },
  });

describe('multipart parts a stranger crafts', () => {
  it('answers 415 for a text part in a charset it cannot decode, and goes on serving', async () => {
    const cyrillic = Buffer.from([0xef, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
    const disposition = 'Content-Disposition: form-data; name="note"';
    for (const charset of ['windows-1251', 'x-made-up']) {
      const res = await post('', part(`${disposition}\r\nContent-Type: text/plain; charset=${charset}`, cyrillic));
      expect(res).toEqual({
        status: 415,
        body: expect.objectContaining({
          code: 'RXREST_UNSUPPORTED_MEDIA_TYPE',
          detail: `The part "note" is in charset ${charset}, which the server cannot read: send it in UTF-8`,
        }),
      });
    }
    await stillServes();
  });

  it('goes on serving when a body fails while file parts wait their turn', async () => {
    // The parts after the fourth wait for a file to write to; when the body failed, the parser ended the one it was on
    // with an error nothing read, and the process died.
    const file = (i: number) =>
      part(`Content-Disposition: form-data; name="f${i}"; filename="f${i}"`, Buffer.alloc(200 * 1024, 97));
    const parts = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(file);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent < parts.length) controller.enqueue(parts[sent++]);
        else controller.error(new Error('the client went away'));
      },
    });
    const answer = await app.fetch(
      new Request('http://localhost/form/all', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    // The client-closed status, as for any body that stops.
    expect(answer.status).toBe(499);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await stillServes();
  });

  it('reads a text part in ISO-8859-1 as before', async () => {
    const latin = Buffer.from('caf\u00e9', 'latin1');
    const res = await post(
      '',
      part('Content-Disposition: form-data; name="note"\r\nContent-Type: text/plain; charset=ISO-8859-1', latin),
    );
    expect(res).toEqual({ status: 200, body: { note: 'caf\u00e9' } });
  });

  it('refuses a body with a part the parser skips, rather than give its headers to the next part', async () => {
    const skipped = [
      // A filename* in a charset the parser lacks.
      part(`Content-Disposition: form-data; name="file"; filename*=x-made-up''%41\r\nX-Secret: 1`, 'x'),
      // A delimiter followed by something other than CRLF.
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}junk`),
        part('Content-Disposition: form-data; name="a"', 'x').subarray(5),
      ]),
    ];
    for (const first of skipped) {
      const res = await post('/all', first, part('Content-Disposition: form-data; name="note"', 'hi'));
      expect(res).toEqual({
        status: 400,
        body: expect.objectContaining({
          code: 'RXREST_MALFORMED_MULTIPART',
          detail: 'The multipart/form-data body has a part that cannot be read',
        }),
      });
    }
    await stillServes();
  });

  it('gives every part its own headers', async () => {
    const res = await post(
      '/all',
      part('Content-Disposition: form-data; name="a"\r\nX-Part: a', '1'),
      part('Content-Disposition: form-data; name="b"; filename="b.txt"\r\nX-Part: b', '2'),
      part('Content-Disposition: form-data; name="c"\r\nX-Part: c', '3'),
    );
    expect(res.status).toBe(200);
    const parts = res.body as Record<string, [{ headers: Record<string, string[]> }]>;
    expect(['a', 'b', 'c'].map((name) => parts[name][0].headers['x-part'])).toEqual([['a'], ['b'], ['c']]);
  });

  it('reads a part whose header block is max-header-size (16K) as the parser counts it, and answers 413 past it', async () => {
    // busboy counts the header lines, the empty line, and the first byte of every line and of every value once more.
    const lines = (padding: number, extra: number) =>
      [
        'Content-Disposition: form-data; name="note"',
        ...Array<string>(extra).fill('A: b'),
        `X-Pad: ${'p'.repeat(padding)}`,
      ].join('\r\n');
    const countOf = (text: string) => text.length + 4 + 2 * text.split('\r\n').length - 1;
    for (const extra of [0, 5]) {
      const padding = 16384 - countOf(lines(0, extra));
      expect(countOf(lines(padding, extra))).toBe(16384);
      expect(await post('', part(lines(padding, extra), 'hi'))).toEqual({ status: 200, body: { note: 'hi' } });
      expect(await post('', part(lines(padding + 1, extra), 'hi'))).toEqual({
        status: 413,
        body: expect.objectContaining({
          code: 'RXREST_PART_TOO_LARGE',
          detail: "A part's headers are larger than 16384 bytes",
        }),
      });
    }
  });

  it('refuses a max-header-size the multipart parser cannot honour', () => {
    expect(() => resolveConfig({ overrides: { 'framework.http.limits.max-header-size': '20K' } })).toThrow(
      /max-header-size.*at most 16K/s,
    );
  });

  it('writes a few files of a body at once, however many tiny file parts it holds', async () => {
    // 999 empty file parts in 70 KB: each opened its file at once, three such bodies about 3,000 descriptors, and
    // under a limit of 1,024 every other connection of the process was refused meanwhile.
    const parts = Array.from({ length: 999 }, (_, i) =>
      part(`Content-Disposition: form-data; name="f${i}"; filename="f"`, ''),
    );
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    let most = before;
    const sampler = setInterval(() => (most = Math.max(most, open())), 1);
    const answers = await Promise.all([1, 2, 3].map(() => post('/all', ...parts)));
    clearInterval(sampler);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(Object.keys(answers[0].body)).toHaveLength(999);
    expect(most - before).toBeLessThan(100);
  });
});
