import type { RequestContext } from '../../context/request-context';
import { UriBuilder } from './uri-builder';

/**
 * The URI of the current request: decoded path, path and query parameters, and builders based on the
 * base URI (the server root) and on the absolute path. Inject it by type or with `@Context()`.
 *
 * @example
 * \@POST add(fruit: Fruit, uriInfo: UriInfo) {
 *   return RestResponse.seeOther(uriInfo.absolutePathBuilder().path(String(fruit.id)).build());
 * }
 */
export class UriInfo {
  readonly #ctx: RequestContext;

  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  /** The decoded path, without matrix parameters or query. */
  get path(): string {
    return this.#ctx.path || decodeURIComponent(this.#ctx.rawPath);
  }

  get pathParameters(): Readonly<Record<string, string>> {
    return this.#ctx.pathParams;
  }

  /** Every query parameter (a copy; repeated parameters keep each value). */
  get queryParameters(): URLSearchParams {
    return new URLSearchParams(this.#ctx.query);
  }

  /** Matrix parameters of every path segment. */
  get matrixParameters(): ReadonlyMap<string, readonly string[]> {
    return this.#ctx.matrix;
  }

  get requestUri(): URL {
    return new URL(this.#ctx.url);
  }

  /** The server root the application is served under, ending with `/`. */
  get baseUri(): URL {
    return new URL('/', this.#ctx.url);
  }

  /** The request URI without its query string. */
  get absolutePath(): URL {
    const url = new URL(this.#ctx.url);
    url.search = '';
    url.hash = '';
    return url;
  }

  baseUriBuilder(): UriBuilder {
    return new UriBuilder(this.baseUri);
  }

  absolutePathBuilder(): UriBuilder {
    return new UriBuilder(this.absolutePath);
  }

  requestUriBuilder(): UriBuilder {
    return new UriBuilder(this.requestUri);
  }
}
