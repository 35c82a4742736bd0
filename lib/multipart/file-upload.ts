/** An uploaded file part as the application sees it: metadata plus the path of the file on disk. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { FileHandle } from 'node:fs/promises';

const nodeFsPromises = () => nodeBuiltin('node:fs/promises', 'multipart uploads to disk');

/** Lower-cased names, each with every value sent (a null-prototype object). */
export type PartHeaders = Readonly<Record<string, readonly string[]>>;

/**
 * A file part of a `multipart/form-data` request, already written to the uploads directory. Move or copy the
 * file before the response is sent: with `framework.http.body.delete-uploaded-files-on-end=true` it is deleted then.
 *
 * @example
 * @POST upload(@RestForm('image') image: FileUpload) { return { name: image.fileName, size: image.size }; }
 */
export class FileUpload {
  /** `@RestForm(FileUpload.ALL)` with `{ type: [FileUpload] }` receives every uploaded file, whatever its part name. */
  static readonly ALL = '*';

  constructor(
    readonly name: string,
    /** As the client sent it. */
    readonly fileName: string | undefined,
    readonly contentType: string,
    readonly charset: string | undefined,
    /** In bytes. */
    readonly size: number,
    /** Under the uploads directory (a UUID name). */
    readonly path: string,
    readonly headers: PartHeaders,
  ) {}

  /** The Java API's name for `path`. */
  uploadedFile(): string {
    return this.path;
  }

  /** Opens the uploaded file; close the handle before the response is sent. */
  open(flags = 'r'): Promise<FileHandle> {
    return nodeFsPromises().open(this.path, flags);
  }
}

/** Type token: `@RestForm('image', { type: UploadedFilePath }) path: string` receives the uploaded file's path. */
export abstract class UploadedFilePath {
  private constructor() {}
}

/** Type token: `@RestForm('image', { type: UploadedFileHandle }) file: FileHandle` receives an opened handle, closed when the request completes. */
export abstract class UploadedFileHandle {
  private constructor() {}
}
