/** `LocalFile`: a request body saved whole to a temporary file in the uploads directory. */
import { nodeBuiltin } from '../runtime/node-builtins';

const nodeFs = () => nodeBuiltin('node:fs', 'bodies saved to disk (LocalFile parameters)');
const nodeFsPromises = () => nodeBuiltin('node:fs/promises', 'bodies saved to disk (LocalFile parameters)');
const nodePath = () => nodeBuiltin('node:path', 'bodies saved to disk (LocalFile parameters)');
const nodeStream = () => nodeBuiltin('node:stream', 'bodies saved to disk (LocalFile parameters)');
const nodeStreamPromises = () => nodeBuiltin('node:stream/promises', 'bodies saved to disk (LocalFile parameters)');

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
  const folder = nodePath().resolve(directory);
  await nodeFsPromises().mkdir(folder, { recursive: true });
  const path = nodePath().resolve(folder, crypto.randomUUID());
  try {
    await nodeStreamPromises().pipeline(
      nodeStream().Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
      nodeFs().createWriteStream(path),
    );
  } catch (error) {
    await nodeFsPromises().rm(path, { force: true });
    throw error;
  }
  return new LocalFile(path, (await nodeFsPromises().stat(path)).size, contentType);
}

export async function deleteLocalFile(file: LocalFile): Promise<void> {
  await nodeFsPromises().rm(file.path, { force: true });
}
