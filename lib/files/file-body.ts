/** The entity of a file response: a byte range of a file, piped to the Node response or read as a Web stream. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { ReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { DirectBody } from '../streaming/direct-body';
import { FILE_RESULTS } from './file-results';

// Static files serve through this body too; either feature stops its build where these are missing.
const nodeFs = () => nodeBuiltin('node:fs', FILE_RESULTS);
const nodeStream = () => nodeBuiltin('node:stream', FILE_RESULTS);

/** A handle is read from its current position when `start` is absent. */
export type FileSource = { readonly path: string } | { readonly handle: FileHandle };

export class FileBody extends DirectBody {
  readonly #source: FileSource;
  readonly #range: { readonly start?: number; readonly end?: number };
  #stream: ReadStream | undefined;

  constructor(
    source: FileSource,
    readonly mediaType: string,
    range: { start: number; end: number } | undefined,
    override readonly length: number | undefined,
  ) {
    super();
    this.#source = source;
    this.#range = { start: range?.start, end: range?.end };
  }

  #open(): ReadStream {
    this.#stream =
      'path' in this.#source
        ? nodeFs().createReadStream(this.#source.path, this.#range)
        : this.#source.handle.createReadStream(this.#range);
    return this.#stream;
  }

  writeTo(response: ServerResponse): void {
    const stream = this.#open();
    // A read error after the headers went out can only truncate the response.
    stream.once('error', () => response.destroy());
    response.once('close', () => stream.destroy());
    stream.pipe(response);
  }

  toWebStream(): ReadableStream<Uint8Array> {
    return nodeStream().Readable.toWeb(this.#open()) as ReadableStream<Uint8Array>;
  }

  cancel(): void {
    this.#stream?.destroy();
    if ('handle' in this.#source && !this.#stream) void this.#source.handle.close().catch(() => undefined);
  }
}
