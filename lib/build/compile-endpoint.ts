/** Compiles one resource method into an endpoint: its route data and its request handling, built once. */
import { catchError, from, Observable, of } from 'rxjs';
import { compileCompression } from '../compression/compile-compression';
import type { CompressionSettings } from '../compression/compression-settings';
import { INTERCEPTOR_BINDINGS } from '../decorators/interceptors';
import { NAME_BINDINGS, RESPONSE_HEADERS, RESPONSE_STATUS } from '../decorators/providers';
import type { ExceptionMappers } from '../errors/exception-mappers';
import { linkStage } from '../links/link-stage';
import type { LinkContext } from '../links/rest-links-provider';
import { parseMediaType, type MediaType } from '../http/media-type';
import { readDesignType } from '../metadata/reflect-shim';
import type { MethodMeta } from '../metadata/store';
import type { BodySettings } from '../params/read-body-argument';
import { compileSteps, toObservable, type StageFn, type Step } from '../pipeline/chain';
import type { Endpoint } from '../pipeline/endpoint';
import { recover } from '../pipeline/map-errors';
import type { EndpointInfo, Lane, RequestContext } from '../pipeline/request-context';
import { toResponseContext, type ResultDefaults } from '../pipeline/to-response';
import { compilePathTemplate, joinPaths } from '../routing/path-template';
import { compileArguments } from './compile-arguments';
import { applicable, requestSteps, responseSteps, type FilterSet } from './compile-filters';
import type { InterceptorChain } from './compile-interceptors';
import { locate, type ProblemCollector } from './definition-error';
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
}

function parseTypes(list: readonly string[] | undefined, where: string, problems: ProblemCollector): MediaType[] {
  const types: MediaType[] = [];
  for (const text of list ?? []) {
    const parsed = parseMediaType(text);
    if (parsed) types.push(parsed);
    else problems.add(where, `"${text}" is not a valid media type`);
  }
  return types;
}

/** Promise, Observable and async-iterable returns run on the event loop; everything else in the worker lane (spec 4.13). */
function defaultLane(returnType: unknown): Lane {
  return returnType === Promise || returnType === Observable ? 'event-loop' : 'worker';
}

function settleResult(ctx: RequestContext, result: unknown, defaults: ResultDefaults): ReturnType<StageFn> {
  if (result instanceof Promise) return result.then((value: unknown) => ((ctx.response = toResponseContext(value, defaults)), ctx));
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

function invokeStage(unit: Unit, method: MethodMeta, interceptors: InterceptorChain, defaults: ResultDefaults): StageFn {
  const fn = (unit.instance as Record<string, Function>)[method.name];
  const bindings = new Set([...(unit.meta.tags.get(INTERCEPTOR_BINDINGS) ?? []), ...(method.tags.get(INTERCEPTOR_BINDINGS) ?? [])]);
  if (interceptors.select(bindings).length === 0) return (ctx) => settleResult(ctx, fn.apply(unit.instance, ctx.args), defaults);
  return (ctx) =>
    settleResult(ctx, interceptors.wrap(unit.type, method.name, unit.instance, ctx.args, bindings, () => resultObservable(fn.apply(unit.instance, ctx.args))), defaults);
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
    lane: defaultLane(returnType),
  };
  const compression = compileCompression(method, context.compression);
  const steps: Step[] = compression.mark ? [compression.mark] : [];
  steps.push(...requestSteps(applicable(context.filters.request, bindings)));
  if (compression.inflate) steps.push(compression.inflate);
  if (args.read) steps.push(args.read);
  steps.push(invokeStage(unit, method, context.interceptors, defaults));
  const links = context.links && linkStage(unit, method, info, context.links, produces);
  if (links) steps.push(links);
  const requestPart = compileSteps(steps);
  const responseFilters = applicable(context.filters.response, bindings);
  const responsePart = responseFilters.length ? compileSteps(responseSteps(responseFilters)) : undefined;
  const { mappers } = context;
  const handle = (ctx: RequestContext): Observable<RequestContext> => {
    ctx.endpoint = info;
    ctx.lane = info.lane;
    const handled = requestPart(toObservable(ctx)).pipe(catchError((error: unknown) => toObservable(recover(ctx, error, mappers))));
    return responsePart ? handled.pipe(responsePart) : handled;
  };
  return { info, template, consumes, produces, readsBody: args.readsBody, handle };
}
