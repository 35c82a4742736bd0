/**
 * A typed key for state a feature keeps on a request, made once where that state is owned: nothing else can read or
 * overwrite it by spelling the same string. User filters keep `getProperty`/`setProperty` (the specification's).
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
