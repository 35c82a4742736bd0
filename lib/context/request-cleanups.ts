/** A request's clean-ups (`RequestContext.onComplete`), in an object of their own so that they can run without it. */

/**
 * The work to run once a request's response has been sent. Kept apart from the request's context so that an open
 * stream waiting for its end holds only this, not the context and everything read into it: with the default stream
 * caps (each stream counted for its client until it ends), an idle SSE stream kept about 1.3 KB of context alive for
 * nothing but its clean-ups.
 */
export class RequestCleanups {
  #list: (() => void | Promise<void>)[] | undefined;

  get size(): number {
    return this.#list?.length ?? 0;
  }

  add(cleanup: () => void | Promise<void>): void {
    // Copied at its exact size: a request has a few clean-ups, and push() on [] reserves room for 17 (about 150
    // bytes an open stream would keep).
    this.#list = this.#list ? [...this.#list, cleanup] : [cleanup];
  }

  /** Runs the clean-ups registered so far, once each, in order. */
  async run(): Promise<void> {
    const list = this.#list;
    this.#list = undefined;
    if (list) for (const cleanup of list) await cleanup();
  }
}
