/** `LocalFile`: a request body saved whole to a temporary file in the uploads directory. */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A body parameter of this type receives the whole body in a file named by a UUID in
 * `framework.http.body.uploads-directory`; the file is deleted once the response has been sent unless
 * `framework.http.body.delete-uploaded-files-on-end` is `false`. Move it elsewhere to keep it.
 *
 * @example
 * \@POST \@Consumes('application/octet-stream') upload(file: LocalFile) { return `${file.size} bytes`; }
 */
export class LocalFile {
  constructor(
    /** Absolute path of the file. */
    readonly path: string,
    /** Size in bytes. */
    readonly size: number,
    /** The request's `Content-Type`, if any. */
    readonly contentType: string | undefined,
  ) {}
}

/** Writes `body` to a new file in `directory` and describes it. */
export async function saveToLocalFile(
  body: ReadableStream<Uint8Array>,
  directory: string,
  contentType: string | undefined,
): Promise<LocalFile> {
  const folder = resolve(directory);
  await mkdir(folder, { recursive: true });
  const path = resolve(folder, randomUUID());
  try {
    await pipeline(
      Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
      createWriteStream(path),
    );
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return new LocalFile(path, (await stat(path)).size, contentType);
}

export async function deleteLocalFile(file: LocalFile): Promise<void> {
  await rm(file.path, { force: true });
}
