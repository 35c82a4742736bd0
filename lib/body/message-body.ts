/** The message body reader, writer and interceptor contracts, as `@Provider` classes implement them. */
import type { WrittenBody } from './entity-writers';
import type { ResponseHeaders } from '../response/response-headers';

/** The request body handed to a reader: read it once, as bytes, text or a stream (the size limit applies). */
export interface EntityInput {
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** The body as a Web stream (empty stream when the request has no body). */
  stream(): ReadableStream<Uint8Array>;
}

/**
 * Reads request bodies of some types and media types. Limit its media types with `@Consumes` on the
 * class; throw an {@link IOException} to reject bad content (400).
 *
 * @example
 * \@Provider() \@Consumes('text/csv')
 * class CsvReader implements MessageBodyReader<string[][]> {
 *   isReadable(type: unknown) { return type === CsvTable; }
 *   async readFrom(_type: unknown, _media: string, _headers: Headers, input: EntityInput) { return (await input.text()).split('\n').map((l) => l.split(',')); }
 * }
 */
export interface MessageBodyReader<T = unknown> {
  /** `type` is the parameter's declared type (or `{ type }` hint); `mediaType` the request's Content-Type. */
  isReadable(type: unknown, mediaType: string): boolean;
  readFrom(type: unknown, mediaType: string, headers: Headers, input: EntityInput): T | Promise<T>;
}

/**
 * Writes response entities of some types and media types. Limit its media types with `@Produces` on
 * the class. `type` is the entity's constructor.
 *
 * @example
 * \@Provider() \@Produces('text/plain')
 * class CheeseTextWriter implements MessageBodyWriter<Cheese> {
 *   isWriteable(type: Function | undefined) { return type === Cheese; }
 *   writeTo(cheese: Cheese) { return `Cheese: ${cheese.name}`; }
 * }
 */
export interface MessageBodyWriter<T = unknown> {
  isWriteable(type: Function | undefined, mediaType: string, entity: T): boolean;
  writeTo(entity: T, mediaType: string, headers: ResponseHeaders): WrittenBody | Promise<WrittenBody>;
}

/** What a server writer knows of the response it writes. */
export interface ServerWriterContext {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly mediaType: string;
}

/**
 * The server-only writer variant: it makes the Web `Response` itself (status, headers and body),
 * skipping the generic body step. `writeTo` is not needed.
 */
export interface ServerMessageBodyWriter<T = unknown> {
  isWriteable(type: Function | undefined, mediaType: string, entity: T): boolean;
  writeResponse(entity: T, context: ServerWriterContext): Response | Promise<Response>;
}

/** A body reading in progress, as reader interceptors see it. */
export interface ReaderInterceptorContext {
  readonly type: unknown;
  readonly mediaType: string;
  readonly headers: Headers;
  /** The body the reader will get; an interceptor may replace it (to decrypt, to inflate...). */
  input: EntityInput;
  /** Runs the next interceptor, then the reader; resolves to the entity read. */
  proceed(): Promise<unknown>;
}

/** A body writing in progress, as writer interceptors see it. */
export interface WriterInterceptorContext {
  /** The entity the writer will get; an interceptor may replace it. */
  entity: unknown;
  readonly mediaType: string;
  readonly headers: ResponseHeaders;
  /** Runs the next interceptor, then the writer; resolves to the written body. */
  proceed(): Promise<WrittenBody>;
}

/** Wraps every body read; returns the entity (usually what `proceed()` resolved to). Lower priority is outermost. */
export interface ReaderInterceptor {
  aroundReadFrom(context: ReaderInterceptorContext): unknown;
}

/** Wraps every body write; returns the body (usually what `proceed()` resolved to, possibly transformed). */
export interface WriterInterceptor {
  aroundWriteTo(context: WriterInterceptorContext): WrittenBody | Promise<WrittenBody>;
}

/** What a reader throws for content it cannot read: the request is answered 400. */
export class IOException extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IOException';
  }
}
