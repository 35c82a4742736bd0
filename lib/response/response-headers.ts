/** Mutable response headers that keep repeated values apart (one line per `Set-Cookie` or `Link`). */

/** Response headers, names case-insensitive, several values per name kept as separate lines. */
export class ResponseHeaders {
  readonly #values = new Map<string, string[]>();

  constructor(init?: Iterable<[string, string]> | Record<string, string | readonly string[]>) {
    if (!init) return;
    if (Symbol.iterator in init) for (const [name, value] of init as Iterable<[string, string]>) this.add(name, value);
    else for (const [name, value] of Object.entries(init)) for (const v of typeof value === 'string' ? [value] : value) this.add(name, v);
  }

  get(name: string): string | undefined {
    const values = this.#values.get(name.toLowerCase());
    return values ? values.join(', ') : undefined;
  }

  getAll(name: string): readonly string[] {
    return this.#values.get(name.toLowerCase()) ?? [];
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  set(name: string, value: string | number): this {
    this.#values.set(name.toLowerCase(), [String(value)]);
    return this;
  }

  add(name: string, value: string | number): this {
    const key = name.toLowerCase();
    const values = this.#values.get(key);
    if (values) values.push(String(value));
    else this.#values.set(key, [String(value)]);
    return this;
  }

  delete(name: string): this {
    this.#values.delete(name.toLowerCase());
    return this;
  }

  get size(): number {
    return this.#values.size;
  }

  *entries(): IterableIterator<[string, readonly string[]]> {
    yield* this.#values.entries();
  }

  /**
   * Headers for a Web `Response`: a plain object when every name has one value (the fast path of
   * `@hono/node-server`), otherwise a `Headers` with one appended line per value.
   */
  toInit(): Record<string, string> | Headers {
    let multi = false;
    for (const values of this.#values.values()) if (values.length > 1) multi = true;
    if (multi) {
      const headers = new Headers();
      for (const [name, values] of this.#values) for (const value of values) headers.append(name, value);
      return headers;
    }
    const init: Record<string, string> = {};
    for (const [name, values] of this.#values) init[name] = values[0];
    return init;
  }
}
