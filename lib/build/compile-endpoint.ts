/** Compiles one resource method into an endpoint: its route data and its request handling, built once. */
import { from, Observable, of } from 'rxjs';
import { compileCompression } from '../compression/compile-compression';
import type { CompressionSettings } from '../compression/compression-settings';
import { INTERCEPTOR_BINDINGS } from '../decorators/interceptors';
import { NAME_BINDINGS, RESPONSE_HEADERS, RESPONSE_STATUS } from '../decorators/providers';
import { STREAM_BUFFER, STREAM_ELEMENT_TYPE } from '../decorators/streaming';
import type { ExceptionMappers } from '../errors/exception-mappers';
import { watchBlocking } from '../execution/blocked-warning';
import { resolveLane } from '../execution/resolve-lane';
import type { WorkerLane } from '../execution/worker-lane';
import { settleFile } from '../files/settle-file';
import { logging } from '../logging/logger';
import { linkStage } from '../links/link-stage';
import type { LinkContext } from '../links/rest-links-provider';
import { parseMediaType, type MediaType } from '../http/media-type';
import { readDesignType } from '../metadata/reflect-shim';
import type { MethodMeta, Tags } from '../metadata/store';
import type { BodySettings } from '../params/read-body-argument';
import { compileStage, type StageFn, type Step } from '../pipeline/chain';
import { always, attempt, then } from '../pipeline/settle';
import type { StageResult } from '../pipeline/stage';
import type { Endpoint } from '../pipeline/endpoint';
import { recover } from '../pipeline/map-errors';
import type { EndpointInfo, Lane, RequestContext } from '../pipeline/request-context';
import { toResponseContext, type ResultDefaults } from '../pipeline/to-response';
import { compilePathTemplate, joinPaths } from '../routing/path-template';
import { isStreamingType } from '../streaming/framing';
import { Multi } from '../streaming/multi';
import { settleStream, type EndpointStreaming } from '../streaming/settle-stream';
import type { StreamSettings } from '../streaming/stream-pump';
import { compileArguments } from './compile-arguments';
import { applicable, requestSteps, responseSteps, type FilterSet } from './compile-filters';
import type { InterceptorChain } from './compile-interceptors';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { Unit } from './discover';

export interface EndpointContext {
  readonly applicationPath: string;
  readonly filters: FilterSet;
  readonly mappers: ExceptionMappers;
  readonly interceptors: InterceptorChain;
  readonly body: BodySettings;
  readonly problems: ProblemCollector;
  /** The application's link targets, for `@InjectRestLinks` endpoints and injected link providers (spec 4.9). */
  readonly links?: LinkContext;
  /** Compression settings, for `@Compressed`/`@Uncompressed`/`@GZIP` methods (spec 4.16). */
  readonly compression?: CompressionSettings;
  /** `framework.rest.stream.*` and `framework.rest.sse.keep-alive` (defaults when absent). */
  readonly streams?: StreamSettings;
  /** The worker lane, the blocked-loop threshold and the `Application`'s annotations (DESIGN §5). */
  readonly lanes?: LaneSettings;
}

export interface LaneSettings {
  readonly worker: WorkerLane;
  readonly blockedWarningMs: number;
  readonly application?: Tags;
}

const DEFAULT_STREAMS: StreamSettings = { bufferSize: 1024, overflow: 'fail', keepAliveMs: 15000 };
const streamLog = logging.getLogger('rxrest.streaming');
const laneLog = logging.getLogger('rxrest.execution');
// Request property marking that the request holds a worker-lane slot (taken before its blocking filters).
const WORKER_SLOT = 'rxrest.worker-slot';

function parseTypes(list: readonly string[] | undefined, where: string, problems: ProblemCollector): MediaType[] {
  const types: MediaType[] = [];
  for (const text of list ?? []) {
    const parsed = parseMediaType(text);
    if (parsed) types.push(parsed);
    else problems.add(where, `"${text}" is not a valid media type`);
  }
  return types;
}

/** The lane of a method: its annotations, its class's, the application's, else its return type (spec 4.13). */
function defaultLane(unit: Unit, method: MethodMeta, returnType: unknown, lanes: LaneSettings | undefined): Lane {
  return resolveLane(method.tags, unit.meta.tags, lanes?.application, returnType, (unit.instance as Record<string, Function>)[method.name]);
}

/** Streams (Multi, async iterables, Web and Node streams) and files; undefined for any other result. */
function settleSpecial(ctx: RequestContext, result: unknown, streaming: EndpointStreaming): RequestContext | Promise<RequestContext> | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  return settleStream(ctx, result, streaming) ?? settleFile(ctx, result);
}

function settleResult(ctx: RequestContext, result: unknown, defaults: ResultDefaults, streaming: EndpointStreaming): ReturnType<StageFn> {
  const special = settleSpecial(ctx, result, streaming);
  if (special !== undefined) return special;
  if (result instanceof Promise)
    return result.then((value: unknown) => settleSpecial(ctx, value, streaming) ?? ((ctx.response = toResponseContext(value, defaults)), ctx));
  if (result instanceof Observable) {
    return new Observable<RequestContext>((subscriber) => {
      let done = false;
      const subscription = result.subscribe({
        next(value: unknown) {
          if (done) return;
          done = true;
          ctx.response = toResponseContext(value, defaults);
          subscriber.next(ctx);
          subscriber.complete();
        },
        error: (error: unknown) => subscriber.error(error),
        complete() {
          if (done) return;
          ctx.response = toResponseContext(undefined, defaults);
          subscriber.next(ctx);
          subscriber.complete();
        },
      });
      if (done) subscription.unsubscribe();
      return subscription;
    });
  }
  ctx.response = toResponseContext(result, defaults);
  return ctx;
}

/** A method's result as an Observable, for interceptors: Promises and Observables as they are, values as one item. */
function resultObservable(result: unknown): Observable<unknown> {
  if (result instanceof Observable) return result;
  if (result instanceof Promise) return from(result);
  return of(result);
}

interface InvokePlan {
  readonly defaults: ResultDefaults;
  readonly streaming: EndpointStreaming;
  readonly blockedWarningMs: number;
}

function invokeStage(unit: Unit, method: MethodMeta, interceptors: InterceptorChain, plan: InvokePlan): StageFn {
  const fn = (unit.instance as Record<string, Function>)[method.name];
  const { defaults, streaming } = plan;
  const bindings = new Set([...(unit.meta.tags.get(INTERCEPTOR_BINDINGS) ?? []), ...(method.tags.get(INTERCEPTOR_BINDINGS) ?? [])]);
  if (interceptors.select(bindings).length === 0) {
    if (plan.blockedWarningMs <= 0) return (ctx) => settleResult(ctx, fn.apply(unit.instance, ctx.args), defaults, streaming);
    const where = `${unit.type.name}#${method.name}`;
    return (ctx) => settleResult(ctx, watchBlocking(() => fn.apply(unit.instance, ctx.args) as unknown, where, plan.blockedWarningMs, laneLog)(), defaults, streaming);
  }
  return (ctx) =>
    settleResult(ctx, interceptors.wrap(unit.type, method.name, unit.instance, ctx.args, bindings, () => resultObservable(fn.apply(unit.instance, ctx.args))), defaults, streaming);
}

function streamingOf(method: MethodMeta, produces: readonly MediaType[], returnType: unknown, settings: StreamSettings = DEFAULT_STREAMS): EndpointStreaming {
  const buffer = method.tags.get(STREAM_BUFFER);
  return {
    settings: buffer ? { ...settings, bufferSize: buffer.size ?? settings.bufferSize, overflow: buffer.overflow ?? settings.overflow } : settings,
    elementType: method.tags.get(STREAM_ELEMENT_TYPE),
    // A declared `Multi` streams whatever Observable the method returns.
    observables: returnType === Multi || (produces.length > 0 && produces.every((type) => isStreamingType(`${type.type}/${type.subtype}`))),
    onError: (error: unknown) => streamLog.error(`The stream of ${method.name} failed after its response was committed`, error),
  };
}

/**
 * The request filters and the invoke step, in their lanes: in the worker lane a slot is taken before the
 * first filter without `nonBlocking` (and released when the request part ends), or around the call alone.
 */
function laneSteps(filters: Parameters<typeof requestSteps>[0], invoke: StageFn, before: readonly Step[], lane: Lane, lanes: LaneSettings | undefined, readsBody: boolean): { steps: Step[]; worker?: WorkerLane } {
  const worker = lane === 'worker' ? lanes?.worker : undefined;
  if (!worker) return { steps: [...requestSteps(filters), ...before, invoke] };
  const firstBlocking = filters.findIndex((filter) => !filter.nonBlocking);
  if (firstBlocking < 0) return { steps: [...requestSteps(filters), ...before, (ctx) => worker.run(() => invoke(ctx), readsBody)] };
  const enter: StageFn = (ctx) => {
    const entered = worker.enter(false);
    ctx.setProperty(WORKER_SLOT, true);
    return entered ? entered.then(() => ctx) : ctx;
  };
  return { steps: [...requestSteps(filters.slice(0, firstBlocking)), enter, ...requestSteps(filters.slice(firstBlocking)), ...before, invoke], worker };
}

/** Runs the request part, releasing the worker slot once it settles, or at once if it throws. */
function releasing(ctx: RequestContext, part: StageFn, release: (ctx: RequestContext) => void): StageResult<RequestContext> {
  try {
    return always(part(ctx), () => release(ctx));
  } catch (error) {
    release(ctx);
    throw error;
  }
}

/** Compiles `method` of a resource class; returns `undefined` when it has problems (recorded). */
export function compileEndpoint(unit: Unit, method: MethodMeta, httpMethod: string, context: EndpointContext): Endpoint | undefined {
  const { problems } = context;
  const where = locate(unit.type, method.name);
  const template = problems.attempt(where, () => compilePathTemplate(joinPaths(context.applicationPath, unit.meta.path ?? '', method.path ?? '')));
  if (!template) return undefined;
  const returnType = readDesignType('design:returntype', unit.type.prototype, method.name);
  const producesText = method.produces ?? unit.meta.produces ?? (returnType === String ? ['text/plain'] : undefined);
  const produces = parseTypes(producesText, where, problems);
  const consumes = parseTypes(method.consumes ?? unit.meta.consumes, where, problems);
  const args = compileArguments(unit.type, method, template, context.body, problems);
  const bindings = new Set([...(unit.meta.tags.get(NAME_BINDINGS) ?? []), ...(method.tags.get(NAME_BINDINGS) ?? [])]);
  const defaults: ResultDefaults = { status: method.tags.get(RESPONSE_STATUS), headers: method.tags.get(RESPONSE_HEADERS) };
  const info: EndpointInfo = {
    resourceClass: unit.type,
    methodName: method.name,
    httpMethod,
    pathTemplate: template.template,
    produces: producesText ?? [],
    consumes: method.consumes ?? unit.meta.consumes ?? [],
    lane: defaultLane(unit, method, returnType, context.lanes),
  };
  const compression = compileCompression(method, context.compression);
  const steps: Step[] = compression.mark ? [compression.mark] : [];
  const invoke = invokeStage(unit, method, context.interceptors, {
    defaults,
    streaming: streamingOf(method, produces, returnType, context.streams),
    blockedWarningMs: context.lanes?.blockedWarningMs ?? 0,
  });
  const beforeInvoke: Step[] = [];
  if (compression.inflate) beforeInvoke.push(compression.inflate);
  if (args.read) beforeInvoke.push(args.read);
  const lanePart = laneSteps(applicable(context.filters.request, bindings), invoke, beforeInvoke, info.lane, context.lanes, args.readsBody);
  steps.push(...lanePart.steps);
  const links = context.links && linkStage(unit, method, info, context.links, produces);
  if (links) steps.push(links);
  const requestPart = compileStage(steps)!;
  const responseFilters = applicable(context.filters.response, bindings);
  const responsePart = compileStage(responseSteps(responseFilters));
  const { mappers } = context;
  const releaseWorker = (ctx: RequestContext) => {
    if (ctx.getProperty(WORKER_SLOT) !== true) return;
    ctx.setProperty(WORKER_SLOT, false);
    lanePart.worker?.release();
  };
  const handle = (ctx: RequestContext): StageResult<RequestContext> => {
    ctx.endpoint = info;
    ctx.lane = info.lane;
    const run = lanePart.worker ? () => releasing(ctx, requestPart, releaseWorker) : () => requestPart(ctx);
    const handled = attempt(run, (error) => recover(ctx, error, mappers));
    return responsePart ? then(handled, responsePart) : handled;
  };
  return { info, template, consumes, produces, readsBody: args.readsBody, handle };
}
