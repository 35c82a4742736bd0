/** Encodes a body with a content coding (RFC 9110 §8.4.1) through node:zlib, or else the Web `CompressionStream`. */
import { maybeNodeBuiltin, nodeBuiltin } from '../runtime/node-builtins';
import { compressOnTheWeb, isWebCoding } from '../runtime/web-compression';
import { COMPRESSORS } from '../config/schema';
import type { Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

const nodeStream = () => nodeBuiltin('node:stream', 'compression (framework.http.enable-compression)');
const nodeZlib = () => nodeBuiltin('node:zlib', 'compression (framework.http.enable-compression)');

/** A coding this module can apply: one of `framework.http.compressors`. */
export type SupportedCoding = (typeof COMPRESSORS)[number];

function compressSync(bytes: Uint8Array, coding: SupportedCoding, level: number): Uint8Array {
  if (coding === 'gzip') return nodeZlib().gzipSync(bytes, { level });
  // The `deflate` coding is the zlib format (RFC 1950), not a raw deflate stream (RFC 9110 §8.4.1.2).
  if (coding === 'deflate') return nodeZlib().deflateSync(bytes, { level });
  return nodeZlib().brotliCompressSync(bytes, {
    params: {
      [nodeZlib().constants.BROTLI_PARAM_QUALITY]: level,
      [nodeZlib().constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  });
}

/** A compressor that flushes after every write, so each chunk written (one SSE event) reaches the client at once. */
function createCompressor(coding: SupportedCoding, level: number): Transform {
  if (coding === 'gzip') return nodeZlib().createGzip({ level, flush: nodeZlib().constants.Z_SYNC_FLUSH });
  if (coding === 'deflate') return nodeZlib().createDeflate({ level, flush: nodeZlib().constants.Z_SYNC_FLUSH });
  return nodeZlib().createBrotliCompress({
    flush: nodeZlib().constants.BROTLI_OPERATION_FLUSH,
    params: { [nodeZlib().constants.BROTLI_PARAM_QUALITY]: level },
  });
}

/**
 * Compresses text and bytes at once (the length is then known), a stream as it flows, with backpressure and one
 * flush per chunk. Cancelling the result cancels the source stream.
 */
export function compressBody(
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  coding: SupportedCoding,
  level: number,
): Uint8Array | ReadableStream<Uint8Array> {
  if (!hasZlib() && isWebCoding(coding)) return compressOnTheWeb(body, coding);
  if (typeof body === 'string') return compressSync(Buffer.from(body, 'utf8'), coding, level);
  if (body instanceof Uint8Array) return compressSync(body, coding, level);
  const compressor = createCompressor(coding, level);
  // Errors of either side end up on `compressor`, so the returned stream errors; nothing else to do here.
  nodeStream().pipeline(
    nodeStream().Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
    compressor,
    () => undefined,
  );
  return nodeStream().Readable.toWeb(compressor) as unknown as ReadableStream<Uint8Array>;
}

/** Whether `coding` is one this module can apply. */
export function isSupportedCoding(coding: string): coding is SupportedCoding {
  return (COMPRESSORS as readonly string[]).includes(coding);
}

/** Whether the runtime has node:zlib (without it: gzip and deflate of whole bodies, through the Web API). */
export function hasZlib(): boolean {
  return maybeNodeBuiltin('node:zlib') !== undefined;
}

/** Whether `coding` can be applied on this runtime (brotli needs node:zlib). */
export function isAvailableCoding(coding: string): boolean {
  return isSupportedCoding(coding) && (hasZlib() || isWebCoding(coding));
}
