import { parseAccept } from '../../http/accept';
import { parseCookieHeader } from '../../http/cookies';
import { formatMediaType, parseMediaType } from '../../http/media-type';
import type { RequestContext } from '../../context/request-context';

/**
 * The request's headers (after any pre-matching filter changes). Inject it by type or with `@Context()`.
 *
 * @example
 * \@GET list(headers: HttpHeaders) { return headers.headerString('user-agent'); }
 */
export class HttpHeaders {
  readonly #ctx: RequestContext;

  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  get requestHeaders(): Headers {
    return this.#ctx.headers;
  }

  /** A header's value, repeated lines joined by `, ` (RFC 9110 §5.3); `undefined` when absent. */
  headerString(name: string): string | undefined {
    return this.#ctx.headers.get(name) ?? undefined;
  }

  /** A header's values, split on commas; empty when absent. */
  requestHeader(name: string): string[] {
    const parts = (this.#ctx.headers.get(name) ?? '').split(',');
    return parts.map((part) => part.trim()).filter((part) => part !== '');
  }

  /** The `Accept` media types, best first (`*\/*` when absent). */
  get acceptableMediaTypes(): string[] {
    return [...parseAccept(this.#ctx.headers.get('accept'))].sort((a, b) => b.q - a.q).map(formatMediaType);
  }

  /** The request's `Content-Type`, parsed; `undefined` when absent or malformed. */
  get mediaType(): string | undefined {
    const parsed = parseMediaType(this.#ctx.headers.get('content-type') ?? '');
    return parsed ? formatMediaType(parsed) : undefined;
  }

  get cookies(): ReadonlyMap<string, string> {
    return parseCookieHeader(this.#ctx.headers.get('cookie'));
  }

  /** `Content-Length`, or -1 when not sent. */
  get length(): number {
    const value = this.#ctx.headers.get('content-length');
    return value === null ? -1 : Number(value);
  }
}
