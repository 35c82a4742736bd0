/** What a method's result becomes: plain data the entity at once, streams and files bodies, later values settled. */
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

/** What the build decided of an endpoint's results. */
export interface ResultPlan {
  readonly defaults: ResultDefaults;
  readonly streaming: EndpointStreaming;
}

/** A plain data object (the usual result), told apart with one prototype read rather than every stream check. */
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

/** An array or a plain data object, which is never a stream, a Promise or a response. */
function isPlainResult(result: unknown): result is object {
  return typeof result === 'object' && result !== null && (Array.isArray(result) || isPlainData(result));
}

function answer(ctx: RequestContext, value: unknown, defaults: ResultDefaults): RequestContext {
  ctx.response = toResponseContext(value, defaults);
  return acceptable(ctx);
}

/** A result without `@Produces` goes out as its default type unless it names one: `Accept` must admit it too (406). */
function acceptable(ctx: RequestContext): RequestContext {
  const response = ctx.response!;
  const { entity, status } = response;
  if (ctx.negotiated !== undefined || response.mediaType !== undefined || entity === undefined || entity === null)
    return ctx;
  const header = ctx.headerValue('accept');
  if (header === null || header === '*/*' || status < 200 || status > 299) return ctx;
  if (response.headers.has('content-type')) return ctx;
  if (!admits(parseAccept(header), defaultMediaType(entity))) throw notAcceptable(ctx, ctx.path);
  return ctx;
}

/** A result becomes the response: streams and files as such, a Promise once resolved, an Observable's first value. */
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

/** A method's result as an Observable, for interceptors. */
export function resultObservable(result: unknown): Observable<unknown> {
  if (result instanceof Observable) return result;
  if (result instanceof Promise) return from(result);
  return of(result);
}
