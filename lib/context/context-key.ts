/**
 * Typed keys for the state a feature keeps on a request (the security facts, the negotiated compression, an open
 * socket...). One key object per piece of state, made once where that state is owned: nothing else can read or
 * overwrite it by spelling the same string, and its value's type travels with it. User filters keep
 * `getProperty`/`setProperty` by name, which the specification defines.
 *
 * @example
 * const STARTED = new ContextKey<number>('started');
 * ctx.set(STARTED, Date.now());
 * const since = ctx.get(STARTED); // number | undefined
 */
export class ContextKey<T> {
  /** Carries `T` for the type checker only. */
  declare readonly valueType?: T;

  /** `name` is for people (logs, debuggers), never a lookup. */
  constructor(readonly name: string) {}

  toString(): string {
    return `ContextKey(${this.name})`;
  }
}
