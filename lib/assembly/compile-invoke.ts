/** Compiles the invoke step of an endpoint: the method call (with interceptors) and what its result becomes. */
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import { of } from 'rxjs/internal/observable/of';
import { INTERCEPTOR_BINDINGS } from '../decorators/interceptors';
import { STREAM_BUFFER } from '../decorators/streaming';
import { STREAM_ELEMENT_TYPE } from '../decorators/stream-element-type';
import { watchedCall } from '../execution/blocked-warning';
import { settleFile } from '../files/settle-file';
import { isStreamingType } from '../streaming/framing';
import { Multi } from '../streaming/multi';
import { settleStream, type EndpointStreaming } from '../streaming/settle-stream';
import type { StreamSettings } from '../streaming/stream-pump';
import type { MediaType } from '../http/media-type';
import { logging } from '../logging/logger';
import type { MethodMeta } from '../metadata/store';
import type { StageFn } from '../pipeline/chain';
import type { RequestContext } from '../pipeline/request-context';
import { firstValue } from '../pipeline/settle';
import { plainResponseContext, toResponseContext, type ResultDefaults } from '../pipeline/to-response';
import type { InterceptorChain } from './compile-interceptors';
import type { Unit } from './discover';

const DEFAULT_STREAMS: StreamSettings = { bufferSize: 64 * 1024 * 1024, overflow: 'fail', keepAliveMs: 15000 };
const streamLog = logging.getLogger('rxrest.streaming');
const laneLog = logging.getLogger('rxrest.execution');

export interface InvokePlan {
  readonly defaults: ResultDefaults;
  readonly streaming: EndpointStreaming;
  readonly blockedWarningMs: number;
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
  return ctx;
}

/** A result becomes the response: streams and files as such, a Promise when it resolves, an Observable by its first value (Uni). */
function settleResult(ctx: RequestContext, result: unknown, plan: InvokePlan): ReturnType<StageFn> {
  const { defaults, streaming } = plan;
  if (isPlainResult(result)) {
    ctx.response = plainResponseContext(result, defaults);
    return ctx;
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
function resultObservable(result: unknown): Observable<unknown> {
  if (result instanceof Observable) return result;
  if (result instanceof Promise) return from(result);
  return of(result);
}

/** The invoke step: the call, wrapped by the method's interceptors and watched for blocking when configured. */
export function invokeStage(unit: Unit, method: MethodMeta, interceptors: InterceptorChain, plan: InvokePlan): StageFn {
  const fn = (unit.instance as Record<string, Function>)[method.name];
  const bindings = new Set([
    ...(unit.meta.tags.get(INTERCEPTOR_BINDINGS) ?? []),
    ...(method.tags.get(INTERCEPTOR_BINDINGS) ?? []),
  ]);
  const wrap = interceptors.wrapperFor(unit.type, method.name, unit.instance, bindings);
  if (!wrap) {
    const call = watchedCall(fn, unit.instance, `${unit.type.name}#${method.name}`, plan.blockedWarningMs, laneLog);
    return (ctx) => settleResult(ctx, call(ctx.args), plan);
  }
  return (ctx) =>
    settleResult(
      ctx,
      wrap(ctx.args, () => resultObservable(fn.apply(unit.instance, ctx.args))),
      plan,
    );
}

/** How the endpoint streams: buffer settings (`@StreamBuffer` over the configuration) and which results stream. */
export function streamingOf(
  method: MethodMeta,
  produces: readonly MediaType[],
  returnType: unknown,
  settings: StreamSettings = DEFAULT_STREAMS,
): EndpointStreaming {
  const buffer = method.tags.get(STREAM_BUFFER);
  return {
    settings: buffer
      ? { ...settings, bufferSize: buffer.size ?? settings.bufferSize, overflow: buffer.overflow ?? settings.overflow }
      : settings,
    elementType: method.tags.get(STREAM_ELEMENT_TYPE),
    // A declared `Multi` streams whatever Observable the method returns.
    observables:
      returnType === Multi ||
      (produces.length > 0 && produces.every((type) => isStreamingType(`${type.type}/${type.subtype}`))),
    onError: (error: unknown) =>
      streamLog.error(`The stream of ${method.name} failed after its response was committed`, error),
  };
}
