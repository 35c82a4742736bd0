import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileUpload, Path, POST, Produces, resolveConfig, RestApplication, RestForm } from '../../lib';
import type { PartHeaders } from '../../lib/multipart/file-upload';
import {
  parseHeaderBlock,
  PartHeaderScanner,
  ScanLimitError,
  scanningStream,
} from '../../lib/multipart/part-header-scanner';
import { listingOnce, tempDir } from '../support/temp-dir';

const BOUNDARY = 'b0undary';
const LIMITS = { maxHeaderSize: 1024, maxBodySize: 1024 * 1024 };

function body(parts: { headers: string[]; content: string }[]): Buffer {
  const text = parts.map((part) => `--${BOUNDARY}\r\n${part.headers.join('\r\n')}\r\n\r\n${part.content}\r\n`).join('');
  return Buffer.from(`preamble\r\n${text}--${BOUNDARY}--\r\nepilogue`);
}

/** Runs `input` through a scanner in the given chunks; resolves with the headers seen and the bytes passed on. */
async function scan(chunks: Buffer[], limits = LIMITS): Promise<{ headers: PartHeaders[]; output: Buffer }> {
  const headers: PartHeaders[] = [];
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.push(chunk);
      done();
    },
  });
  await pipeline(
    Readable.from(chunks),
    scanningStream(new PartHeaderScanner(BOUNDARY, limits, (h) => headers.push(h))),
    sink,
  );
  return { headers, output: Buffer.concat(out) };
}

function split(buffer: Buffer, ...at: number[]): Buffer[] {
  const edges = [0, ...at, buffer.length];
  return edges.slice(1).map((end, i) => buffer.subarray(edges[i], end));
}

const TWO_PARTS = body([
  { headers: ['Content-Disposition: form-data; name="a"', 'X-Extra: 1', 'x-extra: 2'], content: 'alpha' },
  {
    headers: ['Content-Disposition: form-data; name="f"; filename="f.txt"', 'Content-Type: text/plain'],
    content: 'file body',
  },
]);

describe('PartHeaderScanner', () => {
  it('reports each part header block in order and passes every byte through unchanged', async () => {
    const { headers, output } = await scan([TWO_PARTS]);
    expect(output.equals(TWO_PARTS)).toBe(true);
    expect(headers).toHaveLength(2);
    expect(headers[0]['content-disposition']).toEqual(['form-data; name="a"']);
    expect(headers[0]['x-extra']).toEqual(['1', '2']);
    expect(headers[1]['content-type']).toEqual(['text/plain']);
  });

  it('finds the same headers wherever the chunk boundaries fall (headers and delimiters split across chunks)', async () => {
    const expected = (await scan([TWO_PARTS])).headers;
    for (let at = 1; at < TWO_PARTS.length; at++) {
      const { headers, output } = await scan(split(TWO_PARTS, at));
      expect({ at, headers }).toEqual({ at, headers: expected });
      expect(output.length).toBe(TWO_PARTS.length);
    }
  });

  it('finds the headers when the body arrives one byte at a time', async () => {
    const chunks = [...TWO_PARTS].map((byte) => Buffer.from([byte]));
    expect((await scan(chunks)).headers).toEqual((await scan([TWO_PARTS])).headers);
  });

  it('does not take a boundary-like line inside content for a delimiter', async () => {
    const input = body([
      {
        headers: ['Content-Disposition: form-data; name="a"'],
        content: `x--${BOUNDARY} mid-line\n--${BOUNDARY} after a bare LF\r\n-${BOUNDARY}`,
      },
    ]);
    for (const at of [45, 60, 75, 90]) expect((await scan(split(input, at))).headers).toHaveLength(1);
  });

  it('handles an empty part whose delimiter follows its header block at once', async () => {
    const input = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="e"\r\n\r\n\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="n"\r\n\r\nx\r\n--${BOUNDARY}--`,
    );
    const { headers } = await scan([input]);
    expect(headers.map((h) => h['content-disposition'][0])).toEqual(['form-data; name="e"', 'form-data; name="n"']);
  });

  it('stops looking after the close delimiter', async () => {
    const input = Buffer.from(
      `--${BOUNDARY}--\r\n\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="late"\r\n\r\n`,
    );
    expect((await scan(split(input, BOUNDARY.length + 3))).headers).toEqual([]);
  });

  it('fails with a header limit error for a header block over maxHeaderSize, also when it spans chunks', async () => {
    const big = body([
      { headers: ['Content-Disposition: form-data; name="a"', `X-Big: ${'h'.repeat(2000)}`], content: 'v' },
    ]);
    await expect(scan([big])).rejects.toMatchObject({ limit: 'header' });
    const error: unknown = await scan(split(big, 30, 600, 1200)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScanLimitError);
    expect((error as ScanLimitError).limit).toBe('header');
  });

  it('accepts a header block just under maxHeaderSize', async () => {
    const input = body([
      { headers: ['Content-Disposition: form-data; name="a"', `X-Big: ${'h'.repeat(900)}`], content: 'v' },
    ]);
    expect((await scan(split(input, 100, 500))).headers[0]['x-big'][0]).toHaveLength(900);
  });

  it('fails with a body limit error once more than maxBodySize bytes went through', async () => {
    await expect(scan(split(TWO_PARTS, 40), { maxHeaderSize: 1024, maxBodySize: 100 })).rejects.toMatchObject({
      limit: 'body',
    });
  });
});

describe('parseHeaderBlock', () => {
  it('skips the delimiter line, lower-cases names, keeps repeated values and joins folded lines', () => {
    const headers = parseHeaderBlock(
      '  padding\r\nContent-Type: text/plain;\r\n  charset=utf-8\r\nX-A: 1\r\nx-a:2\r\nbroken line\r\n: no name',
    );
    expect({ ...headers }).toEqual({ 'content-type': ['text/plain; charset=utf-8'], 'x-a': ['1', '2'] });
  });

  it('returns a null-prototype object, so a __proto__ header is an own key', () => {
    const headers = parseHeaderBlock('\r\n__proto__: polluted');
    expect(Object.getPrototypeOf(headers)).toBeNull();
    expect(headers['__proto__']).toEqual(['polluted']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

@Path('hdr')
class HeaderResource {
  @POST
  @Produces('application/json')
  upload(@RestForm('file') file: FileUpload) {
    return { size: file.size, extra: file.headers['x-extra'] };
  }
}

describe('PartHeaderScanner through the application', () => {
  const dir = tempDir('mp-hdr');
  const app = RestApplication.build({
    classes: [HeaderResource],
    config: resolveConfig({
      overrides: { 'framework.http.body.uploads-directory': dir, 'framework.http.limits.max-header-size': '512' },
    }),
  });
  const post = (headerLine: string) =>
    app.fetch(
      new Request('http://localhost/hdr', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n${headerLine}\r\n\r\n${'z'.repeat(4000)}\r\n--${BOUNDARY}--\r\n`,
      }),
    );

  it('answers 413 RXREST_PART_TOO_LARGE for part headers over framework.http.limits.max-header-size, leaving no file', async () => {
    const res = await post(`X-Extra: ${'h'.repeat(600)}`);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'RXREST_PART_TOO_LARGE' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives the part headers to the FileUpload when they fit', async () => {
    const res = await post('X-Extra: kept');
    expect(await res.json()).toEqual({ size: 4000, extra: ['kept'] });
    expect(await listingOnce(dir)).toEqual([]);
  });
});
