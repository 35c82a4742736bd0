/** A multipart/form-data response built part by part, each part with its own media type and headers. */
import { nodeBuiltin } from '../runtime/node-builtins';
import { FileUpload } from './file-upload';

const nodePath = () => nodeBuiltin('node:path', 'multipart output of files');

/** A file on disk to stream into a part. */
export interface FileSource {
  readonly path: string;
}

/** What a part may hold: text, bytes, a stream, a file (streamed, never buffered) or an object written as its media type. */
export type PartValue =
  string | Uint8Array | ReadableStream<Uint8Array> | FileUpload | FileSource | object | number | boolean | bigint;

/** One part of a {@link MultipartFormDataOutput}. */
export class OutputPart {
  readonly #headers = new Map<string, string[]>();

  constructor(
    readonly name: string,
    readonly value: PartValue,
    readonly mediaType: string,
    readonly fileName: string | undefined,
  ) {}

  /** Adds a header to this part only (`Content-Disposition` and `Content-Type` are written by the framework). */
  addHeader(name: string, value: string): this {
    const list = this.#headers.get(name);
    if (list) list.push(value);
    else this.#headers.set(name, [value]);
    return this;
  }

  get headers(): ReadonlyMap<string, readonly string[]> {
    return this.#headers;
  }
}

/**
 * A multipart/form-data entity: return it from a `@Produces('multipart/form-data')` method.
 *
 * @example
 * const output = new MultipartFormDataOutput();
 * output.addFormData('person', { firstName: 'Ada' }, 'application/json');
 * output.addFormData('note', 'hello', 'text/plain').addHeader('X-Part', '1');
 * output.addFile('report', { path: '/tmp/report.pdf' }, 'application/pdf', 'report.pdf');
 * return output;
 */
export class MultipartFormDataOutput {
  readonly #parts: OutputPart[] = [];

  /** Adds a part; objects are written as JSON under a JSON media type, text types take the value's string form. */
  addFormData(name: string, value: PartValue, mediaType = 'text/plain', fileName?: string): OutputPart {
    const part = new OutputPart(name, value, mediaType, fileName);
    this.#parts.push(part);
    return part;
  }

  /** Adds a file part, streamed from disk; the file name defaults to the upload's or the path's base name. */
  addFile(
    name: string,
    file: FileUpload | FileSource,
    mediaType = 'application/octet-stream',
    fileName?: string,
  ): OutputPart {
    const defaultName = (file instanceof FileUpload ? file.fileName : undefined) ?? nodePath().basename(file.path);
    return this.addFormData(name, file, mediaType, fileName ?? defaultName);
  }

  get parts(): readonly OutputPart[] {
    return this.#parts;
  }

  static isFile(value: PartValue): value is FileUpload | FileSource {
    if (value instanceof FileUpload) return true;
    if (typeof value !== 'object' || value === null || value instanceof Uint8Array || value instanceof ReadableStream)
      return false;
    return Object.keys(value).length === 1 && typeof (value as { path?: unknown }).path === 'string';
  }
}
