/** The files one request uploads: created under UUID names, and deleted together, never one left behind. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { WriteStream } from 'node:fs';
import type { UploadBudget } from './upload-budget';

const nodeFs = () => nodeBuiltin('node:fs', 'multipart uploads to disk');
const nodeFsPromises = () => nodeBuiltin('node:fs/promises', 'multipart uploads to disk');
const nodePath = () => nodeBuiltin('node:path', 'multipart uploads to disk');

const directories = new Map<string, Promise<unknown>>();

/** Creates the uploads directory once per process (and again if creating it failed). */
function ensureDirectory(directory: string): Promise<unknown> {
  let made = directories.get(directory);
  if (!made) {
    made = nodeFsPromises()
      .mkdir(directory, { recursive: true })
      .catch((error: unknown) => {
        directories.delete(directory);
        throw error;
      });
    directories.set(directory, made);
  }
  return made;
}

/**
 * Tracks every file written for one request, and the bytes it holds of the application's upload budget.
 * `discard()` waits until every write stream has closed before unlinking, so a file opened late cannot survive it;
 * after `discard()` no new file can be created. What the request held is given back once (`release()`).
 */
export class UploadStore {
  readonly #directory: string;
  readonly #files: { path: string; closed: Promise<void>; stream: WriteStream }[] = [];
  #discarded = false;
  readonly #abort = new AbortController();
  readonly #budget: UploadBudget;
  #held = 0;

  constructor(directory: string, budget: UploadBudget) {
    this.#directory = nodePath().resolve(directory);
    this.#budget = budget;
  }

  /** Takes `bytes` more of the budget for a file of this request: `false` when they would pass it. */
  hold(bytes: number): boolean {
    if (!this.#budget.take(bytes)) return false;
    this.#held += bytes;
    return true;
  }

  /** Gives back what this request held: its files are deleted, or no longer uploads in progress (idempotent). */
  release(): void {
    this.#budget.give(this.#held);
    this.#held = 0;
  }

  prepare(): Promise<unknown> {
    return ensureDirectory(this.#directory);
  }

  /** A new write stream to a fresh UUID file; `undefined` once the store has been discarded. */
  create(): { path: string; stream: WriteStream } | undefined {
    if (this.#discarded) return undefined;
    const path = nodePath().join(this.#directory, crypto.randomUUID());
    const stream = nodeFs().createWriteStream(path, { flags: 'wx' });
    const closed = new Promise<void>((done) => stream.once('close', () => done()));
    stream.on('error', () => undefined);
    this.#files.push({ path, closed, stream });
    return { path, stream };
  }

  /** Aborted when the request is abandoned: the parser stops reading. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Stops every write still running, and the parser feeding them. */
  abort(): void {
    if (!this.#abort.signal.aborted) this.#abort.abort();
    for (const file of this.#files) if (!file.stream.closed) file.stream.destroy();
  }

  /** Deletes every file of the request (idempotent). */
  async discard(): Promise<void> {
    this.#discarded = true;
    this.abort();
    const files = this.#files.splice(0);
    await Promise.all(files.map((file) => file.closed));
    await Promise.all(
      files.map((file) =>
        nodeFsPromises()
          .unlink(file.path)
          .catch(() => undefined),
      ),
    );
    this.release();
  }
}
