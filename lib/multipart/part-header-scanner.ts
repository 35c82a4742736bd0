/**
 * Reads the header block of every multipart part (RFC 2046 §5.1.1) and counts body bytes as they pass: busboy hides
 * part headers and caps them at a fixed 16 KiB.
 */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Transform, TransformCallback } from 'node:stream';
import type { PartHeaders } from './file-upload';

const nodeStream = () => nodeBuiltin('node:stream', 'multipart forms');

export class ScanLimitError extends Error {
  constructor(
    readonly limit: 'body' | 'header',
    message: string,
  ) {
    super(message);
  }
}

// Bytes, not a Buffer: this module is loaded where Buffer may be missing (multipart itself needs Node).
const CRLF = new Uint8Array([13, 10]);
const CRLF2 = new Uint8Array([13, 10, 13, 10]);

export function scanningStream(scanner: PartHeaderScanner): Transform {
  return new (nodeStream().Transform)({
    transform: (chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback) =>
      scanner.transform(chunk, encoding, callback),
  });
}

export class PartHeaderScanner {
  readonly #delimiter: Buffer;
  readonly #maxHeaderSize: number;
  readonly #maxBodySize: number;
  readonly #onHeaders: (headers: PartHeaders) => void;
  #state: 'seek' | 'headers' | 'done' = 'seek';
  /** The previous chunk's last bytes (a delimiter may span chunks), or the header block so far. */
  #carry: Buffer;
  #total = 0;

  constructor(
    boundary: string,
    limits: { maxHeaderSize: number; maxBodySize: number },
    onHeaders: (headers: PartHeaders) => void,
  ) {
    this.#delimiter = Buffer.from(`\r\n--${boundary}`);
    // The first delimiter has no CRLF before it: pretend the body starts with one.
    this.#carry = Buffer.from('\r\n');
    this.#maxHeaderSize = limits.maxHeaderSize;
    this.#maxBodySize = limits.maxBodySize;
    this.#onHeaders = onHeaders;
  }

  transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#total += chunk.length;
    if (this.#total > this.#maxBodySize)
      return callback(new ScanLimitError('body', `The request body is larger than ${this.#maxBodySize} bytes`));
    try {
      let data = chunk;
      while (data.length && this.#state !== 'done')
        data = this.#state === 'seek' ? this.#seek(data) : this.#collect(data);
    } catch (error) {
      return callback(error as Error);
    }
    callback(null, chunk);
  }

  /** Only a delimiter-length tail is copied between chunks. */
  #seek(data: Buffer): Buffer {
    const keep = this.#delimiter.length - 1;
    const joined = this.#carry.length ? Buffer.concat([this.#carry, data.subarray(0, keep)]) : undefined;
    const inJoined = joined ? joined.indexOf(this.#delimiter) : -1;
    let rest: Buffer | undefined;
    if (inJoined >= 0) rest = data.subarray(inJoined + this.#delimiter.length - this.#carry.length);
    else {
      const at = data.indexOf(this.#delimiter);
      if (at >= 0) rest = data.subarray(at + this.#delimiter.length);
    }
    if (rest === undefined) {
      const tail =
        data.length >= keep ? data.subarray(data.length - keep) : Buffer.concat([this.#carry, data]).subarray(-keep);
      this.#carry = Buffer.from(tail);
      return Buffer.alloc(0);
    }
    this.#state = 'headers';
    this.#carry = Buffer.alloc(0);
    return rest;
  }

  #collect(data: Buffer): Buffer {
    const block = this.#carry.length ? Buffer.concat([this.#carry, data]) : data;
    if (block.length >= 2 && block[0] === 0x2d && block[1] === 0x2d) {
      this.#state = 'done';
      return Buffer.alloc(0);
    }
    const end = block.indexOf(CRLF2);
    // Unfinished, the block so far counts (the finished block is larger); finished, as busboy counts it.
    if ((end < 0 ? block.length : busboyCount(block, end)) > this.#maxHeaderSize)
      throw new ScanLimitError('header', `A part's headers are larger than ${this.#maxHeaderSize} bytes`);
    if (end < 0) {
      this.#carry = Buffer.from(block);
      return Buffer.alloc(0);
    }
    this.#onHeaders(parseHeaderBlock(block.subarray(0, end).toString('utf8')));
    this.#state = 'seek';
    this.#carry = Buffer.alloc(0);
    // The CRLF ending the header block may also start an empty part's delimiter.
    return block.subarray(end + 2);
  }
}

/**
 * The bytes busboy counts against its bound for a header block ending at `end` (the delimiter line's CRLF first): the
 * header lines and the empty line, and the first byte of every line and of every value once more.
 */
function busboyCount(block: Buffer, end: number): number {
  let lines = 1;
  for (let at = block.indexOf(CRLF, 2); at >= 0 && at < end; at = block.indexOf(CRLF, at + 2)) lines++;
  return end + 1 + 2 * lines;
}

/** The delimiter line's rest is transport padding; folded lines join the previous value. */
export function parseHeaderBlock(text: string): PartHeaders {
  const headers: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  let last: string[] | undefined;
  for (const line of text.split('\r\n').slice(1)) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last[last.length - 1] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    last = headers[name] ??= [];
    last.push(line.slice(colon + 1).trim());
  }
  return headers;
}
