/** `LocalFile`: a request body saved whole to a temporary file in the uploads directory. */
import { nodeBuiltin, type BuiltinName } from '../runtime/node-builtins';

export const LOCAL_FILES = 'bodies saved to disk (LocalFile parameters)';
const node = <K extends BuiltinName>(name: K) => nodeBuiltin(name, LOCAL_FILES);

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
  const folder = node('node:path').resolve(directory);
  await node('node:fs/promises').mkdir(folder, { recursive: true });
  const path = node('node:path').resolve(folder, crypto.randomUUID());
  try {
    await node('node:stream/promises').pipeline(
      node('node:stream').Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
      node('node:fs').createWriteStream(path),
    );
  } catch (error) {
    await node('node:fs/promises').rm(path, { force: true });
    throw error;
  }
  return new LocalFile(path, (await node('node:fs/promises').stat(path)).size, contentType);
}

export async function deleteLocalFile(file: LocalFile): Promise<void> {
  await node('node:fs/promises').rm(file.path, { force: true });
}
