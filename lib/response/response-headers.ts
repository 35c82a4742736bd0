/** Mutable response headers that keep repeated values apart (one line per `Set-Cookie` or `Link`). */

/** Response headers, names case-insensitive, several values per name kept as separate lines. */
export class ResponseHeaders {
  // One value is kept as a string, several as an array: most responses carry a handful of single-line
  // headers, and this is on every request's path.
  readonly #values = new Map<string, string | string[]>();

  constructor(init?: Iterable<[string, string]> | Record<string, string | readonly string[]>) {
    if (!init) return;
    if (Symbol.iterator in init) for (const [name, value] of init as Iterable<[string, string]>) this.add(name, value);
    else
      for (const [name, value] of Object.entries(init))
        for (const v of typeof value === 'string' ? [value] : value) this.add(name, v);
  }

  get(name: string): string | undefined {
    const values = this.#values.get(name.toLowerCase());
    return typeof values === 'string' || values === undefined ? values : values.join(', ');
  }

  getAll(name: string): readonly string[] {
    const values = this.#values.get(name.toLowerCase());
    return values === undefined ? [] : typeof values === 'string' ? [values] : values;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  set(name: string, value: string | number): this {
    this.#values.set(name.toLowerCase(), String(value));
    return this;
  }

  add(name: string, value: string | number): this {
    const key = name.toLowerCase();
    const values = this.#values.get(key);
    if (values === undefined) this.#values.set(key, String(value));
    else if (typeof values === 'string') this.#values.set(key, [values, String(value)]);
    else values.push(String(value));
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
    for (const [name, values] of this.#values) yield [name, typeof values === 'string' ? [values] : values];
  }

  /**
   * Headers for a Web `Response`, each repeated value kept as its own line on every path:
   * - a plain object, a repeated name holding an array: Node's `writeHead` (which `@hono/node-server`'s
   *   lightweight `Response` hands the object to) writes one line per element;
   * - with a non-enumerable `Symbol.iterator` of `[name, value]` pairs: a `Headers` made from it (the
   *   native `Response`, or whoever reads `response.headers`) takes the sequence form of `HeadersInit`
   *   (Fetch §5.2) and appends each line, so `getSetCookie()` stays apart and `get()` joins with ", ".
   * A `Headers` alone cannot do it: it joins repeated values into one line, but each `Set-Cookie` must
   * have its own (RFC 6265 §3) and one `Link` line per link is what clients of the Java framework read.
   */
  toInit(): Record<string, string | string[]> {
    const init: Record<string, string | string[]> = {};
    let multi = false;
    for (const [name, values] of this.#values) {
      if (typeof values === 'string') init[name] = values;
      else {
        multi = true;
        init[name] = [...values];
      }
    }
    if (!multi) return init;
    const lines: [string, string][] = [];
    for (const [name, values] of this.entries()) for (const value of values) lines.push([name, value]);
    Object.defineProperty(init, Symbol.iterator, { enumerable: false, value: () => lines.values() });
    return init;
  }
}
