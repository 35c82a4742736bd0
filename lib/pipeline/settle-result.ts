/**
 * What a method's result becomes, on every request: the usual results (an array, a plain data object) the response
 * entity at once, streams and files their bodies, a Promise when it resolves, an Observable by its first value.
 */
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import { of } from 'rxjs/internal/observable/of';
import { settleFile } from '../files/settle-file';
import type { StageFn } from './chain';
import type { RequestContext } from '../context/request-context';
import { firstValue } from '../context/settle';
import { plainResponseContext, toResponseContext, type ResultDefaults } from './to-response';
import { settleStream, type EndpointStreaming } from './settle-stream';
import { defaultMediaType } from '../body/entity-writers';
import { parseAccept } from '../http/accept';
import { admits } from '../http/negotiate';
import { notAcceptable } from './select-endpoint';

/** What the build decided of an endpoint's results: its status and headers, and how it streams. */
export interface ResultPlan {
  readonly defaults: ResultDefaults;
  readonly streaming: EndpointStreaming;
}

/**
 * A plain data object (an object literal, a JSON-mapped record) that cannot be a stream or a file handle:
 * the usual result, told apart with one prototype read instead of every stream and file check.
 */
function isPlainData(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  // Property reads rather than `in`: as cheap for V8's inline caches, where `in` went to the runtime.
  const fields = value as { [Symbol.asyncIterator]?: unknown; fd?: unknown };
  return (
    (prototype === Object.prototype || prototype === null) &&
    fields[Symbol.asyncIterator] === undefined &&
    fields.fd === undefined
  );
}

/** Streams (Multi, async iterables, Web and Node streams) and files; undefined for any other result. */
function settleSpecial(
  ctx: RequestContext,
  result: unknown,
  streaming: EndpointStreaming,
): RequestContext | Promise<RequestContext> | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result) || isPlainData(result)) return undefined;
  return settleStream(ctx, result, streaming) ?? settleFile(ctx, result);
}

/**
 * The usual results, an array or a plain data object, become the response entity without asking whether
 * they are a stream, a Promise or a response (an array never is: `settleSpecial` passes arrays over too).
 */
function isPlainResult(result: unknown): result is object {
  return typeof result === 'object' && result !== null && (Array.isArray(result) || isPlainData(result));
}

function answer(ctx: RequestContext, value: unknown, defaults: ResultDefaults): RequestContext {
  ctx.response = toResponseContext(value, defaults);
  return acceptable(ctx);
}

/**
 * A result of a method without `@Produces` goes out as its default type (text for a string, JSON for other values,
 * bytes as application/octet-stream) unless the response names one (its media type, or a Content-Type header of its
 * own): that type must be one the request's `Accept` admits, as a `@Produces` type must (406 otherwise, through the
 * exception mappers). A `string` return type is checked earlier, when the endpoint is chosen: its `@Produces` is
 * `text/plain` by default.
 */
function acceptable(ctx: RequestContext): RequestContext {
  const response = ctx.response!;
  const { entity, status } = response;
  if (ctx.negotiated !== undefined || response.mediaType !== undefined || entity === undefined || entity === null)
    return ctx;
  const header = ctx.headerValue('accept');
  if (header === null || header === '*/*' || status < 200 || status > 299) return ctx;
  // A Content-Type header of its own (`@ResponseHeader('Content-Type', ...)`) is what is sent: it names its type.
  if (response.headers.has('content-type')) return ctx;
  if (!admits(parseAccept(header), defaultMediaType(entity))) throw notAcceptable(ctx, ctx.path);
  return ctx;
}

/** A result becomes the response: streams and files as such, a Promise when it resolves, an Observable by its first value (Uni). */
export function settleResult(ctx: RequestContext, result: unknown, plan: ResultPlan): ReturnType<StageFn> {
  const { defaults, streaming } = plan;
  if (isPlainResult(result)) {
    ctx.response = plainResponseContext(result, defaults);
    return acceptable(ctx);
  }
  const special = settleSpecial(ctx, result, streaming);
  if (special !== undefined) return special;
  if (result instanceof Promise)
    return result.then((value: unknown) => settleSpecial(ctx, value, streaming) ?? answer(ctx, value, defaults));
  if (result instanceof Observable)
    return firstValue(
      result,
      (value) => answer(ctx, value, defaults),
      () => answer(ctx, undefined, defaults),
    );
  return answer(ctx, result, defaults);
}

/** A method's result as an Observable, for interceptors: Promises and Observables as they are, values as one item. */
export function resultObservable(result: unknown): Observable<unknown> {
  if (result instanceof Observable) return result;
  if (result instanceof Promise) return from(result);
  return of(result);
}
