/** The types of a REST client, computed from the resource class (type imports only: the entry loads no server code). */
import type { Observable } from 'rxjs';
import type { FileUpload } from '../multipart/file-upload';
import type { FileSource, MultipartFormDataOutput } from '../multipart/multipart-form-data-output';
import type { MultipartFormDataInput } from '../multipart/multipart-form-data-input';
import type { HttpHeaders } from '../params/context/http-headers';
import type { ResourceInfo } from '../params/context/resource-info';
import type { UriInfo } from '../params/context/uri-info';
import type { RequestContext } from '../context/request-context';
import type { RestResponse } from '../response/rest-response';
import type { SseEvent } from '../streaming/sse-event';
import type { ClientSseEvent } from './read-response';

/**
 * A value as the client receives it: a multipart answer is a `FormData`, bytes a `Uint8Array`, an `SseEvent` its data.
 * Every field of `SseEvent` is optional, so only the event type itself counts as one, not any type with an `id`.
 */
export type ClientValue<T> = T extends MultipartFormDataOutput
  ? FormData
  : T extends Uint8Array
    ? Uint8Array
    : T extends SseEvent
      ? SseEvent extends T
        ? unknown
        : T
      : T;

/**
 * What a call emits for a method returning `R`: the value of a plain, Promise or `RestResponse` result (`unknown` for a
 * `RestResponse<never>`, a redirect's), every item of an Observable, `Multi`, async iterable or generator.
 */
export type ClientItem<R> =
  R extends Promise<infer T>
    ? ClientItem<T>
    : R extends Observable<infer T> | AsyncIterable<infer T> | Generator<infer T>
      ? ClientValue<T>
      : R extends RestResponse<infer T>
        ? [T] extends [never]
          ? unknown
          : ClientValue<T>
        : R extends Response
          ? unknown
          : ClientValue<R>;

type ContextObject = Request | Headers | UriInfo | HttpHeaders | ResourceInfo | RequestContext;

/**
 * A parameter as the client takes it: a file upload a `Blob` (or `{ path }` in Node), a multipart input an output, a
 * `Multi` any Observable or async iterable; a context object is `void`, so trailing ones may be left out.
 */
export type ClientArg<P> = 0 extends 1 & P
  ? P
  : [P] extends [ContextObject]
    ? void
    : P extends Observable<infer T>
      ? Observable<T> | AsyncIterable<T>
      : P extends FileUpload
        ? Blob | FileSource
        : P extends MultipartFormDataInput
          ? MultipartFormDataOutput | FormData
          : P;

export type ClientArgs<A extends readonly unknown[]> = { [K in keyof A]: ClientArg<A[K]> };

/** The method names of `T` (fields and private members are left out). */
export type MethodNames<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];

/** The calls of a client of `T`. */
export type RestClientOf<T> = {
  [K in MethodNames<T>]: T[K] extends (...args: infer A) => infer R
    ? (...args: ClientArgs<A>) => Observable<ClientItem<R>>
    : never;
};

/** The calls of a client of `T`, emitting whole server-sent events. */
export type ClientEventsOf<T> = {
  [K in MethodNames<T>]: T[K] extends (...args: infer A) => infer R
    ? (...args: ClientArgs<A>) => Observable<ClientSseEvent<ClientItem<R>>>
    : never;
};
