/** The typed response an endpoint, filter or mapper returns: status, headers, cookies and entity. */
import { markWrapperClass } from '../metadata/bindable-class';
import { formatCacheControl, type CacheControl } from '../http/cache-control';
import type { NewCookie } from '../http/cookies';
import { EntityTag } from '../http/entity-tag';
import { formatHttpDate } from '../http/http-date';
import { formatLink } from '../http/link-header';
import { ResponseHeaders } from './response-headers';

/**
 * A response with a typed entity, Quarkus REST's `RestResponse<T>`. Build one with the static shortcuts or
 * with {@link ResponseBuilder}.
 *
 * @example
 * return RestResponse.ok(fruit);
 * return RestResponse.ResponseBuilder.ok(text, 'text/plain').header('X-Cheese', 'Morbier').build();
 */
export class RestResponse<T = unknown> {
  constructor(
    readonly status: number,
    readonly entity: T | undefined,
    readonly headers: ResponseHeaders,
    /** The media type given with the entity; negotiation picks one when absent. */
    readonly mediaType?: string,
  ) {}

  static readonly ResponseBuilder: typeof ResponseBuilder;

  static ok<T>(entity?: T, mediaType?: string): RestResponse<T> {
    return ResponseBuilder.ok(entity, mediaType).build();
  }

  static status<T>(status: number, entity?: T): RestResponse<T> {
    return ResponseBuilder.status<T>(status).entity(entity).build();
  }

  static noContent(): RestResponse<never> {
    return ResponseBuilder.status<never>(204).build();
  }

  static notFound(): RestResponse<never> {
    return ResponseBuilder.status<never>(404).build();
  }

  static serverError(): RestResponse<never> {
    return ResponseBuilder.status<never>(500).build();
  }

  static accepted<T>(entity?: T): RestResponse<T> {
    return ResponseBuilder.status<T>(202).entity(entity).build();
  }

  static created<T>(location: string | URL, entity?: T): RestResponse<T> {
    return ResponseBuilder.created<T>(location).entity(entity).build();
  }

  /** 303 See Other: where a POST sends the client to GET what it created. */
  static seeOther(location: string | URL): RestResponse<never> {
    return ResponseBuilder.seeOther(location).build();
  }

  static temporaryRedirect(location: string | URL): RestResponse<never> {
    return ResponseBuilder.status<never>(307).location(location).build();
  }

  static notModified(tag?: EntityTag | string): RestResponse<never> {
    const builder = ResponseBuilder.status<never>(304);
    return (tag === undefined ? builder : builder.tag(tag)).build();
  }
}

/** Builds a {@link RestResponse} step by step; every method returns the builder. */
export class ResponseBuilder<T = unknown> {
  #status: number;
  #entity: T | undefined;
  #mediaType: string | undefined;
  readonly #headers = new ResponseHeaders();

  private constructor(status: number) {
    this.#status = status;
  }

  static status<T = unknown>(status: number): ResponseBuilder<T> {
    return new ResponseBuilder<T>(status);
  }

  static ok<T>(entity?: T, mediaType?: string): ResponseBuilder<T> {
    const builder = new ResponseBuilder<T>(200).entity(entity);
    return mediaType === undefined ? builder : builder.type(mediaType);
  }

  static created<T = unknown>(location: string | URL): ResponseBuilder<T> {
    return new ResponseBuilder<T>(201).location(location);
  }

  static seeOther(location: string | URL): ResponseBuilder<never> {
    return new ResponseBuilder<never>(303).location(location);
  }

  static noContent(): ResponseBuilder<never> {
    return new ResponseBuilder<never>(204);
  }

  /** A builder starting from an existing response (to change a few headers of it). */
  static fromResponse<T>(response: RestResponse<T>): ResponseBuilder<T> {
    const builder = new ResponseBuilder<T>(response.status).entity(response.entity);
    for (const [name, values] of response.headers.entries())
      for (const value of values) builder.#headers.add(name, value);
    builder.#mediaType = response.mediaType;
    return builder;
  }

  status(status: number): this {
    this.#status = status;
    return this;
  }

  entity(entity: T | undefined): this {
    this.#entity = entity;
    return this;
  }

  type(mediaType: string): this {
    this.#mediaType = mediaType;
    return this;
  }

  /** Adds a header line; `undefined` removes every line of that name. */
  header(name: string, value: string | number | Date | undefined): this {
    if (value === undefined) this.#headers.delete(name);
    else this.#headers.add(name, value instanceof Date ? formatHttpDate(value) : value);
    return this;
  }

  location(location: string | URL): this {
    return this.#set('location', String(location));
  }

  contentLocation(location: string | URL): this {
    return this.#set('content-location', String(location));
  }

  expires(date: Date): this {
    return this.#set('expires', formatHttpDate(date));
  }

  lastModified(date: Date): this {
    return this.#set('last-modified', formatHttpDate(date));
  }

  /** Sets the `ETag`, always written quoted (`"v1"`, or `W/"v1"` for a weak tag). */
  tag(tag: EntityTag | string): this {
    return this.#set('etag', (typeof tag === 'string' ? new EntityTag(tag) : tag).toString());
  }

  cookie(...cookies: NewCookie[]): this {
    for (const cookie of cookies) this.#headers.add('set-cookie', cookie.toString());
    return this;
  }

  /** Adds one `Link` header line (RFC 8288). */
  link(uri: string | URL, rel: string, params: { title?: string; type?: string } = {}): this {
    this.#headers.add('link', formatLink({ href: String(uri), rel, ...params }));
    return this;
  }

  allow(...methods: string[]): this {
    return this.#set('allow', methods.join(', '));
  }

  language(language: string): this {
    return this.#set('content-language', language);
  }

  encoding(encoding: string): this {
    return this.#set('content-encoding', encoding);
  }

  cacheControl(cacheControl: CacheControl): this {
    return this.#set('cache-control', formatCacheControl(cacheControl));
  }

  variant(vary: string): this {
    this.#headers.add('vary', vary);
    return this;
  }

  #set(name: string, value: string): this {
    this.#headers.set(name, value);
    return this;
  }

  build(): RestResponse<T> {
    const headers = new ResponseHeaders();
    for (const [name, values] of this.#headers.entries()) for (const value of values) headers.add(name, value);
    return new RestResponse<T>(this.#status, this.#entity, headers, this.#mediaType);
  }
}

(RestResponse as { ResponseBuilder: typeof ResponseBuilder }).ResponseBuilder = ResponseBuilder;
// The REST client binds a JSON answer to the declared return class, never to this wrapper of it.
markWrapperClass(RestResponse);
