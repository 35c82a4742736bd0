/** One part of a parsed multipart request (a text value or a file on disk), and its item summary (docs/multipart.md). */
import type { PartHeaders } from './file-upload';
import { FileUpload } from './file-upload';

/** The file of a file part. */
export interface FileItem {
  readonly size: number;
  readonly path: string;
  /** Always false: files are never kept in memory. */
  readonly isInMemory: false;
}

/** What a part's value is, in one word: a text value or a file. */
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
    /** The text of a non-file part (`''` for a file part: read the file instead). */
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

  /** The part as a {@link FileUpload}, for file parts. */
  toFileUpload(): FileUpload | undefined {
    const item = this.fileItem;
    return (
      item &&
      new FileUpload(this.name, this.fileName, this.contentType, this.charset, item.size, item.path, this.headers)
    );
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
