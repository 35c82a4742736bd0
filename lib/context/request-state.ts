/**
 * What a request carries for the code that handles it: named properties (the specification's, for filters),
 * typed state under a `ContextKey` (the framework's and features'), and the clean-ups to run once it is answered.
 */
import type { ContextKey } from './context-key';
import { RequestCleanups } from './request-cleanups';

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

  /** The framework's (or a feature's) state under `key`, apart from the named properties filters use. */
  get<T>(key: ContextKey<T>): T | undefined {
    return this.#state?.get(key) as T | undefined;
  }

  /** Keeps `value` under `key` for the rest of the request (`undefined` forgets it). */
  set<T>(key: ContextKey<T>, value: T | undefined): void {
    if (value === undefined) this.#state?.delete(key);
    else (this.#state ??= new Map()).set(key, value);
  }

  /** Registers work to run once the response has been sent (or the request failed). */
  onComplete(cleanup: () => void | Promise<void>): void {
    (this.#cleanups ??= new RequestCleanups()).add(cleanup);
  }

  /** Runs the registered clean-ups once; called by the server adapter. */
  async complete(): Promise<void> {
    await this.#cleanups?.run();
  }

  /**
   * The clean-ups registered so far and any registered later, to be run without this context (`run()`, once): what
   * waits for a long response to end holds them alone, not the request.
   */
  get cleanups(): RequestCleanups {
    return (this.#cleanups ??= new RequestCleanups());
  }

  get hasCleanups(): boolean {
    return (this.#cleanups?.size ?? 0) > 0;
  }
}
