/** The bytes an application's uploads in progress hold on disk together: else N requests put N times as much there. */
import { httpProblem } from '../errors/http-problem';

/** Seconds a refused client is told to wait: uploads in progress end or are cut within about that. */
const RETRY_SECONDS = 5;

export class UploadBudget {
  #held = 0;

  /** `limit` bytes at most together; 0: no limit. */
  constructor(readonly limit: number) {}

  get full(): boolean {
    return this.limit > 0 && this.#held >= this.limit;
  }

  /** `false` (nothing taken) when `bytes` would pass the limit. */
  take(bytes: number): boolean {
    if (this.limit > 0 && this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  /** A 503, not a 413 (which a client must not repeat unchanged): the server is busy, not this request too large. */
  refusal(): Error {
    return httpProblem(
      'RXREST_UPLOADS_FULL',
      `The uploads in progress hold as many bytes on disk as they may (${this.limit}, framework.http.limits.max-uploads-size)`,
      { headers: { 'retry-after': String(RETRY_SECONDS) } },
    );
  }
}
