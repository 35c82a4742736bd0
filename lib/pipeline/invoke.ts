/** The read and invoke steps of an endpoint: its arguments, then the method call (with interceptors). */
import { INTERCEPTOR_BINDINGS } from '../decorators/interceptors';
import { STREAM_BUFFER } from '../decorators/streaming';
import { STREAM_ELEMENT_TYPE } from '../decorators/stream-element-type';
import { watchedCall } from '../execution/blocked-warning';
import { isStreamingType } from '../http/streaming-types';
import { streamFailureLog } from '../streaming/backlog';
import { Multi } from '../streaming/multi';
import type { EndpointStreaming } from './settle-stream';
import { resultObservable, settleResult, type ResultPlan } from './settle-result';
import { withBuffer, type StreamSettings } from '../streaming/stream-pump';
import type { MediaType } from '../http/media-type';
import { logging } from '../logging/logger';
import type { MethodMeta } from '../metadata/store';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import type { ArgumentReader } from '../params/compile-argument';
import type { InterceptorChain } from './interceptors';
import type { Unit } from '../metadata/unit';

const DEFAULT_STREAMS: StreamSettings = { bufferSize: 64 * 1024 * 1024, overflow: 'fail', keepAliveMs: 15000 };
const streamLog = logging.getLogger('rxrest.streaming');
const laneLog = logging.getLogger('rxrest.execution');

export interface InvokePlan extends ResultPlan {
  readonly blockedWarningMs: number;
}

/** The call, wrapped by the method's interceptors, else watched for blocking when configured. */
export function invokeStage(unit: Unit, method: MethodMeta, interceptors: InterceptorChain, plan: InvokePlan): StageFn {
  const fn = (unit.instance as Record<string, Function>)[method.name];
  const bindings = new Set([
    ...(unit.meta.tags.get(INTERCEPTOR_BINDINGS) ?? []),
    ...(method.tags.get(INTERCEPTOR_BINDINGS) ?? []),
  ]);
  const wrap = interceptors.wrapperFor(unit.type, method.name, unit.instance, bindings);
  const call = wrap
    ? (args: unknown[]) => wrap(args, () => resultObservable(fn.apply(unit.instance, args)))
    : watchedCall(fn, unit.instance, `${unit.type.name}#${method.name}`, plan.blockedWarningMs, laneLog);
  return (ctx) => settleResult(ctx, call(ctx.args), plan);
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
    settings: withBuffer(settings, buffer?.size, buffer?.overflow),
    elementType: method.tags.get(STREAM_ELEMENT_TYPE),
    // A declared `Multi` streams whatever Observable the method returns.
    observables:
      returnType === Multi ||
      (produces.length > 0 && produces.every((type) => isStreamingType(`${type.type}/${type.subtype}`))),
    onError: streamFailureLog(streamLog, `The stream of ${method.name} failed after its response was committed`),
  };
}

/** Reads every argument; waits only when some reader answers later (bodies, forms). */
export function readArguments(readers: readonly ArgumentReader[]): StageFn {
  return (ctx: RequestContext) => {
    const args = new Array<unknown>(readers.length);
    let pending: Promise<unknown>[] | undefined;
    try {
      for (let i = 0; i < readers.length; i++) {
        const value = readers[i](ctx);
        if (value instanceof Promise) (pending ??= []).push(value.then((resolved) => (args[i] = resolved)));
        else args[i] = value;
      }
    } catch (error) {
      // A later argument failed: earlier pending reads are abandoned, and must not reject unhandled.
      for (const read of pending ?? []) read.catch(() => undefined);
      throw error;
    }
    ctx.args = args;
    return pending ? Promise.all(pending).then(() => ctx) : ctx;
  };
}
