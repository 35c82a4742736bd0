import { PassThrough, Readable } from 'node:stream';
import { pulledReadable } from '../../lib/runtime/pulled-readable';

const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString();

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks;
}

describe('pulledReadable', () => {
  it('gives every chunk in order, then ends', async () => {
    const source = Readable.from([Buffer.from('one '), Buffer.from('two '), Buffer.from('three')]);
    expect(text(await readAll(pulledReadable(source)))).toBe('one two three');
  });

  it('reads the readable only as it is asked (nothing flows before a read)', async () => {
    const source = new PassThrough();
    const stream = pulledReadable(source);
    source.write('a'.repeat(100));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(source.readableLength).toBe(100);
    const reader = stream.getReader();
    expect(text([(await reader.read()).value!])).toBe('a'.repeat(100));
  });

  it('destroys the readable when cancelled', async () => {
    const source = new PassThrough();
    const reader = pulledReadable(source).getReader();
    await reader.cancel();
    expect(source.destroyed).toBe(true);
  });

  it('fails a read when the readable errs, or was destroyed before its end', async () => {
    const failing = new PassThrough();
    const read = pulledReadable(failing).getReader().read();
    failing.destroy(new Error('broken'));
    await expect(read).rejects.toThrow('broken');
    const gone = new PassThrough();
    gone.destroy();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(pulledReadable(gone).getReader().read()).rejects.toThrow('closed before its end');
  });
});
