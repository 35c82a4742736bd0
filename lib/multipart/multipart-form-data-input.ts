/** The parts of a parsed multipart request (text values or files on disk), as the `MultipartFormDataInput` type. */
import { FileUpload, type PartHeaders } from './file-upload';

export interface FileItem {
  readonly size: number;
  readonly path: string;
  /** Always false: files are never kept in memory. */
  readonly isInMemory: false;
}

export interface ItemSummary {
  readonly name: string;
  readonly size: number;
  readonly charset: string;
  readonly fileName: string | null;
  readonly isFileItem: boolean;
  readonly headers: PartHeaders;
}

/** One part: `value` is its text for a non-file part; `fileItem` its file for a file part. */
export class FormValue {
  constructor(
    readonly name: string,
    /** `''` for a file part: read the file instead. */
    readonly value: string,
    readonly fileItem: FileItem | undefined,
    readonly contentType: string,
    readonly charset: string,
    readonly fileName: string | undefined,
    readonly headers: PartHeaders,
  ) {}

  get isFileItem(): boolean {
    return this.fileItem !== undefined;
  }

  /** Bytes: the file's size, or the encoded length of the text. */
  get size(): number {
    return this.fileItem?.size ?? Buffer.byteLength(this.value);
  }

  toFileUpload(): FileUpload | undefined {
    const item = this.fileItem;
    if (!item) return undefined;
    return new FileUpload(this.name, this.fileName, this.contentType, this.charset, item.size, item.path, this.headers);
  }

  summary(): ItemSummary {
    return {
      name: this.name,
      size: this.size,
      charset: this.charset,
      fileName: this.fileName ?? null,
      isFileItem: this.isFileItem,
      headers: this.headers,
    };
  }
}

/**
 * All parts of a `multipart/form-data` request. Declare a parameter of this type (undecorated) to receive it.
 *
 * @example
 * @POST all(input: MultipartFormDataInput) { return input.summaries(); }
 */
export class MultipartFormDataInput {
  readonly #parts: readonly FormValue[];
  #values: Map<string, FormValue[]> | undefined;

  constructor(parts: readonly FormValue[]) {
    this.#parts = parts;
  }

  /** In the order sent. */
  get parts(): readonly FormValue[] {
    return this.#parts;
  }

  /** A `Map`, so names such as `__proto__` are plain keys. */
  getValues(): ReadonlyMap<string, readonly FormValue[]> {
    if (!this.#values) {
      this.#values = new Map();
      for (const part of this.#parts) {
        const list = this.#values.get(part.name);
        if (list) list.push(part);
        else this.#values.set(part.name, [part]);
      }
    }
    return this.#values;
  }

  files(): FileUpload[] {
    return this.#parts.flatMap((part) => part.toFileUpload() ?? []);
  }

  /** Part name → item summaries, as a JSON-ready object. */
  summaries(): Record<string, ItemSummary[]> {
    return Object.fromEntries([...this.getValues()].map(([name, list]) => [name, list.map((part) => part.summary())]));
  }
}
