import { createGzip, gzipSync } from 'node:zlib';
import { GZIP, Path, POST, resolveConfig } from '../../lib';
import { inflateBody, inflateRequest } from '../../lib/compression/inflate-request';
import { gunzipOnTheWeb } from '../../lib/runtime/web-compression';
import { buildApp, call } from '../support/app';

/** A gzip of `size` zero bytes, built in 1 MiB steps so the inflated form never exists in memory. */
async function gzipBomb(size: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < size; written += zeros.length) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(parts);
}

function streamOf(bytes: Uint8Array, chunk = 16 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}

@Path('upload')
class Upload {
  @POST @GZIP text(body: string) {
    return `got ${body.length}: ${body.slice(0, 5)}`;
  }
  @POST @Path('plain') plain(body: string) {
    return `plain ${body.length}`;
  }
}

describe('inflateRequest', () => {
  it('inflates a gzip body and drops Content-Encoding and Content-Length', async () => {
    const request = new Request('http://x/', {
      method: 'POST',
      headers: { 'Content-Encoding': 'gzip', 'Content-Length': '99' },
      body: gzipSync('hello'),
    });
    const inflated = inflateRequest(request, 1024);
    expect(inflated.headers.get('content-encoding')).toBeNull();
    expect(inflated.headers.get('content-length')).toBeNull();
    expect(await inflated.text()).toBe('hello');
  });

  it('leaves bodies without a gzip coding, and bodiless requests, as they are', () => {
    const plain = new Request('http://x/', { method: 'POST', body: 'hi' });
    expect(inflateRequest(plain, 10)).toBe(plain);
    const get = new Request('http://x/', { headers: { 'Content-Encoding': 'gzip' } });
    expect(inflateRequest(get, 10)).toBe(get);
  });
});

describe('inflateBody', () => {
  it('inflates gzip data read in chunks', async () => {
    const text = 'rxrest '.repeat(20_000);
    await expect(new Response(inflateBody(streamOf(gzipSync(text), 1000), 1_000_000)).text()).resolves.toBe(text);
  });

  it('fails with 413 once the inflated size passes the limit, and with 400 for data that is not gzip', async () => {
    await expect(new Response(inflateBody(streamOf(gzipSync('x'.repeat(101))), 100)).text()).rejects.toMatchObject({
      status: 413,
      problem: { code: 'RXREST_BODY_TOO_LARGE' },
    });
    await expect(new Response(inflateBody(streamOf(gzipSync('x'.repeat(100))), 100)).text()).resolves.toHaveLength(100);
    await expect(
      new Response(inflateBody(streamOf(new TextEncoder().encode('not gzip')), 100)).text(),
    ).rejects.toMatchObject({ status: 400, problem: { code: 'RXREST_MALFORMED_BODY' } });
  });

  it('fails with 400 for gzip data cut short', async () => {
    const whole = gzipSync('y'.repeat(5000));
    await expect(
      new Response(inflateBody(streamOf(whole.subarray(0, whole.length - 12)), 10_000)).text(),
    ).rejects.toMatchObject({ status: 400, problem: { code: 'RXREST_MALFORMED_BODY' } });
  });

  it('fails, rather than waits, when the body itself fails (its client left)', async () => {
    const head = gzipSync('z'.repeat(100_000)).subarray(0, 20);
    let sent = false;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error('the client left'));
        sent = true;
        controller.enqueue(head);
      },
    });
    await expect(new Response(inflateBody(failing, 1_000_000)).text()).rejects.toMatchObject({ status: 400 });
  });

  it('inflates no more of a 256 MiB bomb than is read before its 413', async () => {
    const bomb = await gzipBomb(256 * 1024 * 1024);
    global.gc?.();
    const before = process.memoryUsage();
    const reader = inflateBody(streamOf(bomb), 1024 * 1024).getReader();
    let read = 0;
    const failure = await (async () => {
      for (;;) read += (await reader.read()).value!.byteLength;
    })().catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = process.memoryUsage();
    expect(failure).toMatchObject({ status: 413 });
    expect(read).toBeLessThanOrEqual(1024 * 1024);
    expect(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers).toBeLessThan(32 * 1024 * 1024);
  });

  /** How much of a 256 MiB bomb (about 260 KB of gzip, read 4 KiB at a time) `inflate` reads for its first output. */
  async function readAhead(inflate: (body: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>) {
    const bomb = await gzipBomb(256 * 1024 * 1024);
    let pulled = 0;
    const counted = streamOf(bomb, 4096).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const reader = inflate(counted).getReader();
    expect((await reader.read()).value!.byteLength).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await reader.cancel();
    return pulled;
  }

  it('reads no more of the body than its stream buffers ahead of what was inflated', async () => {
    // node:zlib's stream reads 32 KiB ahead (two of its 16 KiB buffers); a piped DecompressionStream took it all.
    expect(await readAhead((body) => inflateBody(body, 1024 * 1024 * 1024))).toBeLessThanOrEqual(64 * 1024);
  });

  it('without node:zlib (a Worker), feeds the DecompressionStream one 16 KiB slice at a time, as it is read', async () => {
    expect(await readAhead(gunzipOnTheWeb)).toBeLessThanOrEqual(16 * 1024);
  });
});

describe('@GZIP request bodies', () => {
  const legacy = { 'framework.legacy.gzip.enabled': true, 'framework.legacy.gzip.max-input': '1M' };

  it('reaches the method inflated when the legacy switch is on', async () => {
    const app = buildApp([Upload], legacy);
    const response = await call(app, '/upload', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' },
      body: gzipSync('hello world'),
    });
    expect(await response.text()).toBe('got 11: hello');
  });

  it('is not inflated for methods without @GZIP, nor with the legacy switch off', async () => {
    const off = buildApp([Upload]);
    const raw = gzipSync('hello world');
    const response = await call(off, '/upload', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' },
      body: raw,
    });
    expect(await response.text()).not.toContain('hello');
    const plain = await call(buildApp([Upload], legacy), '/upload/plain', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' },
      body: raw,
    });
    expect(await plain.text()).toBe(`plain ${new TextDecoder().decode(raw).length}`);
  });

  it('reads framework.legacy.gzip.max-input in the size format, 10M by default', () => {
    expect(resolveConfig().get('framework.legacy.gzip.max-input')).toBe(10 * 1024 * 1024);
    expect(
      resolveConfig({ overrides: { 'framework.legacy.gzip.max-input': '2k' } }).get('framework.legacy.gzip.max-input'),
    ).toBe(2048);
  });

  it('answers 413 for a 512 MiB decompression bomb while memory stays flat', async () => {
    const bomb = await gzipBomb(512 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const app = buildApp([Upload], { ...legacy, 'framework.http.limits.max-body-size': '1G' });
    global.gc?.();
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers);
    }, 1);
    // Stopped however the call ends: a sampler left running every millisecond would hold Jest open for good.
    const response = await call(app, '/upload', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' },
      body: streamOf(bomb),
    }).finally(() => clearInterval(sampler));
    const after = process.memoryUsage();
    peak = Math.max(peak, after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('RXREST_BODY_TOO_LARGE');
    // The limit is 1 MiB of 512 MiB: what was inflated stays within a few MiB of it.
    expect(peak).toBeLessThan(32 * 1024 * 1024);
  });
});
