/** UTF-8 through `TextEncoder`/`TextDecoder` (a Worker may lack `Buffer`), or Node's `Buffer`, which skips a copy. */

type NodeBuffer = typeof import('node:buffer').Buffer;

// The runtime's global, read once: it is one object per process, not application state.
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes of `text` in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes, as both encoders write it). */
function webUtf8Length(text: string): number {
  let bytes = text.length;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) continue;
    bytes += code < 0x800 ? 1 : 2;
    // A surrogate pair is 4 bytes for its 2 units: 2 counted above, the low unit adds nothing.
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) at++;
    }
  }
  return bytes;
}

/** The number of bytes `text` takes in UTF-8. */
export const utf8Length: (text: string) => number = nodeBuffer
  ? (text) => nodeBuffer.byteLength(text, 'utf8')
  : webUtf8Length;

/** `text` as UTF-8 bytes (a `Buffer` on Node). */
export const utf8Bytes: (text: string) => Uint8Array = nodeBuffer
  ? (text) => nodeBuffer.from(text, 'utf8')
  : (text) => encoder.encode(text);

/** `bytes` as a `Buffer` sharing its memory (itself when it is one already): Node's calls without a copy. */
function asBuffer(buffers: NodeBuffer, bytes: Uint8Array): Buffer {
  return bytes instanceof buffers ? bytes : buffers.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The UTF-8 text of `bytes[start, end)`. */
export const utf8Text: (bytes: Uint8Array, start?: number, end?: number) => string = nodeBuffer
  ? (bytes, start = 0, end = bytes.byteLength) => asBuffer(nodeBuffer, bytes).toString('utf8', start, end)
  : (bytes, start = 0, end = bytes.byteLength) => decoder.decode(bytes.subarray(start, end));

/** Writes `text` in UTF-8 into `target` at `offset` (room for it checked by the caller); the bytes written. */
export const writeUtf8: (target: Uint8Array, text: string, offset: number) => number = nodeBuffer
  ? (target, text, offset) => asBuffer(nodeBuffer, target).write(text, offset, 'utf8')
  : (target, text, offset) => encoder.encodeInto(text, target.subarray(offset)).written;

/** `length` bytes whose content does not matter yet (Node reuses its pool without zeroing). */
export const allocBytes: (length: number) => Uint8Array = nodeBuffer
  ? (length) => nodeBuffer.allocUnsafe(length)
  : (length) => new Uint8Array(length);

/** `data`'s bytes in a `Uint8Array` (a `Buffer` on Node): an `ArrayBuffer` viewed, a `Uint8Array` copied. */
export const copyBytes: (data: ArrayBuffer | Uint8Array) => Uint8Array = nodeBuffer
  ? (data) => nodeBuffer.from(data as ArrayBuffer)
  : (data) => (data instanceof Uint8Array ? data.slice() : new Uint8Array(data));

/** A stream of `chunk` alone. */
export function streamOf(chunk: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** Whether `type` is Node's `Buffer` class (never where the runtime has none). */
export function isNodeBufferClass(type: unknown): boolean {
  return nodeBuffer !== undefined && type === nodeBuffer;
}

/** `bytes` in base64 (RFC 4648 §4). */
export function toBase64(bytes: Uint8Array): string {
  if (nodeBuffer) return asBuffer(nodeBuffer, bytes).toString('base64');
  let binary = '';
  // In pieces: String.fromCharCode takes its bytes as arguments, and a call takes only so many.
  for (let at = 0; at < bytes.byteLength; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
