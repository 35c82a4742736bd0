/** Encodes a body with a content coding (RFC 9110 §8.4.1) through node:zlib, or else the Web `CompressionStream`. */
import { maybeNodeBuiltin, nodeBuiltin } from '../runtime/node-builtins';
import { compressOnTheWeb, isWebCoding } from '../runtime/web-compression';
import { COMPRESSORS } from '../config/schema';
import type { Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

const nodeZlib = () => nodeBuiltin('node:zlib', 'compression (framework.http.enable-compression)');

/** A coding this module can apply: one of `framework.http.compressors`. */
export type SupportedCoding = (typeof COMPRESSORS)[number];

function compressSync(bytes: Uint8Array, coding: SupportedCoding, level: number): Uint8Array {
  const zlib = nodeZlib();
  if (coding === 'gzip') return zlib.gzipSync(bytes, { level });
  // The `deflate` coding is the zlib format (RFC 1950), not a raw deflate stream (RFC 9110 §8.4.1.2).
  if (coding === 'deflate') return zlib.deflateSync(bytes, { level });
  const { BROTLI_PARAM_QUALITY: quality, BROTLI_PARAM_SIZE_HINT: sizeHint } = zlib.constants;
  return zlib.brotliCompressSync(bytes, { params: { [quality]: level, [sizeHint]: bytes.byteLength } });
}

/** A compressor that flushes after every write, so each chunk written (one SSE event) reaches the client at once. */
function createCompressor(coding: SupportedCoding, level: number): Transform {
  const zlib = nodeZlib();
  const { Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH, BROTLI_PARAM_QUALITY } = zlib.constants;
  if (coding === 'gzip') return zlib.createGzip({ level, flush: Z_SYNC_FLUSH });
  if (coding === 'deflate') return zlib.createDeflate({ level, flush: Z_SYNC_FLUSH });
  return zlib.createBrotliCompress({ flush: BROTLI_OPERATION_FLUSH, params: { [BROTLI_PARAM_QUALITY]: level } });
}

/** Compresses text and bytes at once, a stream as it flows (a flush per chunk; cancelling it cancels the source). */
export function compressBody(
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  coding: SupportedCoding,
  level: number,
): Uint8Array | ReadableStream<Uint8Array> {
  if (!hasZlib() && isWebCoding(coding)) return compressOnTheWeb(body, coding);
  if (typeof body === 'string') return compressSync(Buffer.from(body, 'utf8'), coding, level);
  if (body instanceof Uint8Array) return compressSync(body, coding, level);
  const compressor = createCompressor(coding, level);
  const { pipeline, Readable } = nodeBuiltin('node:stream', 'compression (framework.http.enable-compression)');
  // Errors of either side end up on `compressor`, so the returned stream errors; nothing else to do here.
  pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), compressor, () => undefined);
  return Readable.toWeb(compressor) as unknown as ReadableStream<Uint8Array>;
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
