/**
 * The bytes the uploads in progress of one application hold on disk together (`framework.http.limits.max-uploads-size`):
 * each request is bounded on its own, but without a shared bound N requests at once put N times as much on disk.
 */
import { httpProblem } from '../errors/http-problem';

/** Seconds a refused client is told to wait: uploads in progress end or are cut within about that. */
const RETRY_SECONDS = 5;

export class UploadBudget {
  #held = 0;

  /** `limit` bytes at most together; 0: no limit. */
  constructor(readonly limit: number) {}

  /** Bytes held now, by every upload in progress. */
  get held(): number {
    return this.#held;
  }

  /** Whether no new upload can start now: everything is held. */
  get full(): boolean {
    return this.limit > 0 && this.#held >= this.limit;
  }

  /** Takes `bytes` if they fit: `false` (nothing taken) when they would pass the limit. */
  take(bytes: number): boolean {
    if (this.limit > 0 && this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  /**
   * The 503 of an upload refused for the bytes others hold: the server is busy, not this request too large (that
   * would be 413, which a client must not repeat unchanged), so it may come back, here or on another instance.
   */
  refusal(): Error {
    return httpProblem(
      'RXREST_UPLOADS_FULL',
      `The uploads in progress hold as many bytes on disk as they may (${this.limit}, framework.http.limits.max-uploads-size)`,
      { headers: { 'retry-after': String(RETRY_SECONDS) } },
    );
  }
}
