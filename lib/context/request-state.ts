/** What a request carries: named properties (for filters), typed state under a `ContextKey`, and its clean-ups. */
import type { ContextKey } from './context-key';

export class RequestState {
  #properties: Map<string, unknown> | undefined;
  #state: Map<ContextKey<unknown>, unknown> | undefined;
  #cleanups: RequestCleanups | undefined;

  getProperty<T = unknown>(name: string): T | undefined {
    return this.#properties?.get(name) as T | undefined;
  }

  setProperty(name: string, value: unknown): void {
    (this.#properties ??= new Map()).set(name, value);
  }

  get<T>(key: ContextKey<T>): T | undefined {
    return this.#state?.get(key) as T | undefined;
  }

  /** Keeps `value` under `key` (`undefined` forgets it). */
  set<T>(key: ContextKey<T>, value: T | undefined): void {
    if (value === undefined) this.#state?.delete(key);
    else (this.#state ??= new Map()).set(key, value);
  }

  /** Registers work to run once the response has been sent (or the request failed). */
  onComplete(cleanup: () => void | Promise<void>): void {
    (this.#cleanups ??= new RequestCleanups()).add(cleanup);
  }

  /** Runs the registered clean-ups once (the server adapter). */
  async complete(): Promise<void> {
    await this.#cleanups?.run();
  }

  /** The clean-ups, now and later, for what waits for a long response without the request to `run()` (once). */
  get cleanups(): RequestCleanups {
    return (this.#cleanups ??= new RequestCleanups());
  }

  get hasCleanups(): boolean {
    return (this.#cleanups?.size ?? 0) > 0;
  }
}

/** A request's clean-ups apart from its context: an idle SSE stream kept 1.3 KB of context alive for them alone. */
export class RequestCleanups {
  #list: (() => void | Promise<void>)[] | undefined;

  get size(): number {
    return this.#list?.length ?? 0;
  }

  add(cleanup: () => void | Promise<void>): void {
    // Copied at its exact size: push() on [] reserves room for 17 (about 150 bytes an open stream would keep).
    this.#list = this.#list ? [...this.#list, cleanup] : [cleanup];
  }

  /** Runs the clean-ups registered so far, once each. */
  async run(): Promise<void> {
    const list = this.#list;
    this.#list = undefined;
    if (list) for (const cleanup of list) await cleanup();
  }
}
