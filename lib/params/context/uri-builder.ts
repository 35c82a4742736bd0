import { isStepSegment } from '../../routing/expand-template';

/** `{name}` in a path as the URL escapes it; a name holds no brace, so each search ends at the next one. */
const VARIABLE = /%7B(?:(?!%7[BD])[^/])+%7D/gi;

/**
 * An immutable-style builder: each call changes this builder and returns it; `build()` fills `{name}`
 * template variables from its arguments in order (percent-encoded) and returns an absolute `URL`; the escapes the path
 * already holds (a request's `100%25`) are kept as they are.
 *
 * @example
 * uriInfo.absolutePathBuilder().path('{id}').queryParam('view', 'full').build(42); // http://host/fruits/42?view=full
 */
export class UriBuilder {
  #url: URL;

  constructor(base: string | URL) {
    this.#url = new URL(String(base));
  }

  /** Appends a path (one or more segments), inserting a `/` between it and the current path when needed. */
  path(path: string): this {
    this.#url.pathname = `${this.#url.pathname.replace(/\/$/, '')}/${path.replace(/^\/+/, '')}`;
    return this;
  }

  replacePath(path: string): this {
    this.#url.pathname = path;
    return this;
  }

  /** Repeated when several. */
  queryParam(name: string, ...values: readonly unknown[]): this {
    for (const value of values) this.#url.searchParams.append(name, String(value));
    return this;
  }

  /** Removes the query string. */
  replaceQuery(query = ''): this {
    this.#url.search = query;
    return this;
  }

  /**
   * The URI, with `{name}` variables of the path filled by `values` in order of appearance. A value that would be a
   * whole segment of `..`, `.` or nothing is used up but leaves its `{name}`: the URL would name another resource.
   */
  build(...values: readonly unknown[]): URL {
    const url = new URL(this.#url);
    let next = 0;
    // Found as the URL holds them (`%7Bname%7D`): decoding the path first turned a request's `100%25` into `100%`.
    url.pathname = url.pathname.replace(VARIABLE, (variable, offset: number, path: string) => {
      if (next >= values.length) return variable;
      const value = String(values[next++]);
      const whole = path[offset - 1] === '/' && (path[offset + variable.length] ?? '/') === '/';
      return whole && isStepSegment(value) ? variable : encodeURIComponent(value);
    });
    return url;
  }

  toString(): string {
    return this.#url.toString();
  }
}
