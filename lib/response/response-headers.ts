/** Mutable response headers that keep repeated values apart (one line per `Set-Cookie` or `Link`). */

/** Response headers, names case-insensitive, several values per name kept as separate lines. */
export class ResponseHeaders {
  // [name, value, name, value…] (lower-case names; several values as an array): answers carry a few headers, and a few
  // comparisons cost less than a Map, whose table Bun allocates per answer.
  readonly #lines: (string | string[])[] = [];

  constructor(init?: Iterable<[string, string]> | Record<string, string | readonly string[]>) {
    if (!init) return;
    if (Symbol.iterator in init) for (const [name, value] of init as Iterable<[string, string]>) this.add(name, value);
    else
      for (const [name, value] of Object.entries(init))
        for (const v of typeof value === 'string' ? [value] : value) this.add(name, v);
  }

  /** Where `key`'s value sits in `#lines`, -1 when absent. */
  #find(key: string): number {
    const lines = this.#lines;
    for (let i = 0; i < lines.length; i += 2) if (lines[i] === key) return i + 1;
    return -1;
  }

  get(name: string): string | undefined {
    const at = this.#find(name.toLowerCase());
    if (at < 0) return undefined;
    const values = this.#lines[at];
    return typeof values === 'string' ? values : values.join(', ');
  }

  getAll(name: string): readonly string[] {
    const at = this.#find(name.toLowerCase());
    if (at < 0) return [];
    const values = this.#lines[at];
    return typeof values === 'string' ? [values] : values;
  }

  has(name: string): boolean {
    return this.#find(name.toLowerCase()) >= 0;
  }

  set(name: string, value: string | number): this {
    const key = name.toLowerCase();
    const at = this.#find(key);
    if (at < 0) this.#lines.push(key, String(value));
    else this.#lines[at] = String(value);
    return this;
  }

  add(name: string, value: string | number): this {
    const key = name.toLowerCase();
    const at = this.#find(key);
    if (at < 0) this.#lines.push(key, String(value));
    else {
      const values = this.#lines[at];
      if (typeof values === 'string') this.#lines[at] = [values, String(value)];
      else values.push(String(value));
    }
    return this;
  }

  delete(name: string): this {
    const at = this.#find(name.toLowerCase());
    if (at >= 0) this.#lines.splice(at - 1, 2);
    return this;
  }

  get size(): number {
    return this.#lines.length >> 1;
  }

  /** The lines as kept, to compare without copying: each lower-case name, then its value (an array when repeated). */
  get flat(): readonly (string | readonly string[])[] {
    return this.#lines;
  }

  *entries(): IterableIterator<[string, readonly string[]]> {
    const lines = this.#lines;
    for (let i = 0; i < lines.length; i += 2) {
      const values = lines[i + 1];
      yield [lines[i] as string, typeof values === 'string' ? [values] : values];
    }
  }

  /**
   * Headers for a Web `Response`, each repeated value its own line (Set-Cookie must, RFC 6265 §3; Java clients read
   * one `Link` per link): a plain object, a repeated name's values in an array (Node's `writeHead` writes a line each),
   * with a non-enumerable `Symbol.iterator` of pairs (Fetch §5.2's sequence form) for a `Headers` made from it.
   */
  toInit(): Record<string, string | string[]> {
    const init: Record<string, string | string[]> = {};
    let multi = false;
    const lines = this.#lines;
    for (let i = 0; i < lines.length; i += 2) {
      const values = lines[i + 1];
      if (typeof values === 'string') init[lines[i] as string] = values;
      else {
        multi = true;
        init[lines[i] as string] = [...values];
      }
    }
    if (!multi) return init;
    const pairs: [string, string][] = [];
    for (const [name, values] of this.entries()) for (const value of values) pairs.push([name, value]);
    Object.defineProperty(init, Symbol.iterator, { enumerable: false, value: () => pairs.values() });
    return init;
  }
}
