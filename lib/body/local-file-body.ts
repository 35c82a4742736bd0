/** `LocalFile`: a request body saved whole to a temporary file in the uploads directory. */
import { nodeBuiltin, type BuiltinName } from '../runtime/node-builtins';
import type { RequestContext } from '../context/request-context';
import type { UploadBudget } from './upload-budget';

export const LOCAL_FILES = 'bodies saved to disk (LocalFile parameters)';
const node = <K extends BuiltinName>(name: K) => nodeBuiltin(name, LOCAL_FILES);
const remove = (path: string) => node('node:fs/promises').rm(path, { force: true });

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

/** Where a `LocalFile` body goes, and the application's uploads budget it counts in (the multipart settings carry these). */
export interface FileSettings {
  readonly uploadsDirectory: string;
  readonly deleteUploadedFilesOnEnd: boolean;
  readonly uploads: UploadBudget;
}

/**
 * Writes `body` to a new file in the uploads directory and describes it. Its bytes count in the uploads budget, as a
 * multipart upload's do, until the request ends (its file deleted then, unless `deleteUploadedFilesOnEnd` is false).
 */
export async function saveToLocalFile(
  body: ReadableStream<Uint8Array>,
  ctx: RequestContext,
  settings: FileSettings,
  contentType: string | undefined,
): Promise<LocalFile> {
  const { uploads } = settings;
  // Refused before a byte is read when the others hold everything: nothing of this body would fit.
  if (uploads.full) throw uploads.refusal();
  const folder = node('node:path').resolve(settings.uploadsDirectory);
  await node('node:fs/promises').mkdir(folder, { recursive: true });
  const path = node('node:path').resolve(folder, crypto.randomUUID());
  let held = 0;
  try {
    await node('node:stream/promises').pipeline(
      node('node:stream').Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
      async function* (chunks: AsyncIterable<Uint8Array>) {
        // Counted before they reach the disk: the budget is never passed, even briefly.
        for await (const chunk of chunks) {
          if (!uploads.take(chunk.length)) throw uploads.refusal();
          held += chunk.length;
          yield chunk;
        }
      },
      node('node:fs').createWriteStream(path),
    );
  } catch (error) {
    await remove(path);
    uploads.give(held);
    throw error;
  }
  // A file the application keeps is its own once the request ends: no longer an upload in progress.
  ctx.onComplete(() =>
    (settings.deleteUploadedFilesOnEnd ? remove(path) : Promise.resolve()).finally(() => uploads.give(held)),
  );
  return new LocalFile(path, held, contentType);
}
