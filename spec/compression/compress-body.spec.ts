import { brotliDecompressSync, createGunzip, gunzipSync, inflateSync } from 'node:zlib';
import { COMPRESSORS } from '../../lib/config/schema';
import { compressBody } from '../../lib/compression/compress-body';
import { until } from '../support/until';

function decode(coding: string, bytes: Uint8Array): string {
  if (coding === 'gzip') return gunzipSync(bytes).toString();
  if (coding === 'deflate') return inflateSync(bytes).toString();
  return brotliDecompressSync(bytes).toString();
}

describe('compressBody', () => {
  for (const coding of COMPRESSORS) {
    it(`encodes text, bytes and streams as ${coding}`, async () => {
      expect(decode(coding, compressBody('Some resource', coding, 6) as Uint8Array)).toBe('Some resource');
      expect(decode(coding, compressBody(new TextEncoder().encode('bytes'), coding, 1) as Uint8Array)).toBe('bytes');
      const stream = new Blob(['a', 'b', 'c']).stream();
      const out = compressBody(stream, coding, 9) as ReadableStream<Uint8Array>;
      expect(decode(coding, new Uint8Array(await new Response(out).arrayBuffer()))).toBe('abc');
    });
  }

  it('compresses an empty body to a valid empty stream', () => {
    expect(gunzipSync(compressBody('', 'gzip', 6) as Uint8Array).toString()).toBe('');
  });

  it('flushes each chunk of a stream, so an SSE event arrives before the next one is written', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const source = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const reader = (compressBody(source, 'gzip', 6) as ReadableStream<Uint8Array>).getReader();
    const gunzip = createGunzip();
    const decodedNext = () =>
      new Promise<string>((resolve) => gunzip.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    // The source stays open all along: only a flush per write lets each event through at once.
    controller.enqueue(new TextEncoder().encode('data: one\n\n'));
    let decoded = decodedNext();
    gunzip.write((await reader.read()).value);
    expect(await decoded).toBe('data: one\n\n');
    controller.enqueue(new TextEncoder().encode('data: two\n\n'));
    decoded = decodedNext();
    gunzip.write((await reader.read()).value);
    expect(await decoded).toBe('data: two\n\n');
    controller.close();
    await reader.cancel();
  });

  it('cancels the source when the compressed stream is cancelled', async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new Uint8Array(10)),
      cancel: () => void (cancelled = true),
    });
    const reader = (compressBody(source, 'deflate', 6) as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    // The cancellation goes through the compressor's pipeline asynchronously: wait for it, not for a guessed 20 ms.
    await until(() => (cancelled ? true : undefined), 'the source to be cancelled');
  });
});
