/** The path and query a request was sent to, split from its URL (or Node's target) once asked; not where it's from. */
import { findQueryValues, parseQuery } from '../http/query';
import { RequestState } from './request-state';
import { targetPath, targetQuery, urlPath, urlPathStart, urlQuery } from './url-parts';

/** Queries up to this long are scanned for each parameter read rather than parsed into a map. */
const SCANNED_QUERY_LENGTH = 256;

export abstract class RequestTarget extends RequestState {
  #rawPath: string | undefined;
  #rawQuery: string | undefined;
  #query: URLSearchParams | undefined;
  #queryValues: Map<string, string[]> | undefined;

  /** The absolute URL of the request. */
  abstract get url(): string;

  /** The origin-form target (`/path?query`) when the URL was made from it unchanged: cheaper to split. */
  protected abstract get originTarget(): string | undefined;

  /** The request path as sent, still percent-encoded and with matrix parameters. */
  get rawPath(): string {
    if (this.#rawPath === undefined) this.#split();
    return this.#rawPath!;
  }

  /** The query string without `?`, as sent. */
  get rawQuery(): string {
    if (this.#rawQuery === undefined) this.#split();
    return this.#rawQuery!;
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.rawQuery));
  }

  /** A query parameter's values (`+` a space): a short query scanned per name, a long one split into a map once. */
  queryValues(name: string): readonly string[] | undefined {
    const query = this.rawQuery;
    if (query === '') return undefined;
    if (this.#queryValues === undefined && query.length <= SCANNED_QUERY_LENGTH) return findQueryValues(query, name);
    this.#queryValues ??= parseQuery(query);
    return this.#queryValues.get(name);
  }

  /** Forgets what was read of the URL, which has changed. */
  protected forgetTarget(): void {
    this.#rawPath = this.#rawQuery = this.#query = this.#queryValues = undefined;
  }

  #split(): void {
    const target = this.originTarget;
    if (target !== undefined) {
      this.#rawPath = targetPath(target);
      this.#rawQuery = targetQuery(target);
    } else {
      const url = this.url;
      const start = urlPathStart(url);
      this.#rawPath = urlPath(url, start);
      this.#rawQuery = urlQuery(url, start);
    }
  }
}
