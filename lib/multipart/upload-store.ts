/** The files one request uploads: created under UUID names, and deleted together, never one left behind. */
import { nodeBuiltin, type BuiltinName } from '../runtime/node-builtins';
import type { WriteStream } from 'node:fs';
import type { UploadBudget } from '../body/upload-budget';

const node = <K extends BuiltinName>(name: K) => nodeBuiltin(name, 'multipart uploads to disk');

/**
 * Every file written for one request, and its bytes of the upload budget. `discard()` waits for every write stream to
 * close before unlinking, so a file opened late cannot survive it.
 */
export class UploadStore {
  readonly #directory: string;
  readonly #files: { path: string; closed: Promise<void>; stream: WriteStream }[] = [];
  #discarded = false;
  readonly #abort = new AbortController();
  readonly #budget: UploadBudget;
  #held = 0;

  constructor(directory: string, budget: UploadBudget) {
    this.#directory = node('node:path').resolve(directory);
    this.#budget = budget;
  }

  /** `false` when `bytes` more would pass the budget. */
  hold(bytes: number): boolean {
    if (!this.#budget.take(bytes)) return false;
    this.#held += bytes;
    return true;
  }

  /** Idempotent: its files are deleted, or no longer uploads in progress. */
  release(): void {
    this.#budget.give(this.#held);
    this.#held = 0;
  }

  /** For every request: a folder removed since (a temp cleaner, an operator) is made again. */
  prepare(): Promise<unknown> {
    return node('node:fs/promises').mkdir(this.#directory, { recursive: true });
  }

  /** `undefined` once the store has been discarded. */
  create(): { path: string; stream: WriteStream } | undefined {
    if (this.#discarded) return undefined;
    const path = node('node:path').join(this.#directory, crypto.randomUUID());
    const stream = node('node:fs').createWriteStream(path, { flags: 'wx' });
    const closed = new Promise<void>((done) => stream.once('close', () => done()));
    stream.on('error', () => undefined);
    this.#files.push({ path, closed, stream });
    return { path, stream };
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  abort(): void {
    if (!this.#abort.signal.aborted) this.#abort.abort();
    for (const file of this.#files) if (!file.stream.closed) file.stream.destroy();
  }

  async discard(): Promise<void> {
    this.#discarded = true;
    this.abort();
    const files = this.#files.splice(0);
    await Promise.all(files.map((file) => file.closed));
    await Promise.allSettled(files.map((file) => node('node:fs/promises').unlink(file.path)));
    this.release();
  }
}
