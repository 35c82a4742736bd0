/** The calls of filters and exception mappers, each parameter a context object chosen by type at build time. */
import { readDesignType } from '../metadata/reflect-shim';
import { contextResolver } from '../params/context-types';
import { isUnknownDesignType } from '../convert/convert';
import { defer } from 'rxjs/internal/observable/defer';
import { from } from 'rxjs/internal/observable/from';
import type { Observable } from 'rxjs';
import type { RequestContext } from '../context/request-context';
import type { CallWrapper } from './interceptors';

export type InjectedReader = (ctx: RequestContext, error?: unknown) => unknown;
export type InjectedArgs = (ctx: RequestContext, error?: unknown) => unknown[];

const readError: InjectedReader = (_ctx, error) => error;

const readContext: InjectedReader = (ctx) => ctx;

export const byPosition: Record<'requestFilter' | 'responseFilter' | 'mapper', readonly InjectedReader[]> = {
  requestFilter: [readContext],
  responseFilter: [readContext, (ctx) => ctx.response, (ctx) => ctx.error],
  mapper: [readError, readContext],
};

export function isErrorClass(type: unknown): type is Function {
  return typeof type === 'function' && (type === Error || type.prototype instanceof Error);
}

function injectionProblem(index: number, type: unknown, hasMetadata: boolean): string {
  if (!hasMetadata)
    return `parameter ${index} cannot be injected: there is no decorator metadata to tell its type (enable emitDecoratorMetadata, or name the exception type in @ServerExceptionMapper(Type) and keep filter parameters to (request, response, error))`;
  const name = typeof type === 'function' ? type.name : String(type);
  return `parameter ${index} of type ${name} cannot be injected: expected a context type (RequestContext, ResponseContext, UriInfo, HttpHeaders, RestRequest, ResourceInfo...) or the handled Error`;
}

/** Compiles a callback's arguments: context objects by type, the handled error for `Error`, else `fallback[i]`. */
export function compileInjection(type: Function, method: string, fallback: readonly InjectedReader[]): InjectedArgs {
  const fn = (type.prototype as Record<string, unknown>)[method] as Function;
  const types = (readDesignType('design:paramtypes', type.prototype, method) as unknown[] | undefined) ?? [];
  const count = Math.max(types.length, fn.length);
  const readers: InjectedReader[] = [];
  for (let i = 0; i < count; i++) {
    const resolve = contextResolver(types[i]);
    if (resolve) readers.push(resolve);
    else if (isErrorClass(types[i])) readers.push(readError);
    else if (isUnknownDesignType(types[i]) && fallback[i]) readers.push(fallback[i]);
    else throw new Error(injectionProblem(i, types[i], types.length > 0));
  }
  if (readers.length === 0) return () => [];
  return (ctx, error) => readers.map((read) => read(ctx, error));
}

/** A filter method's call (given the handled error, for a response filter). */
export function injectedCall(fn: Function, target: unknown, inject: InjectedArgs): (ctx: RequestContext) => unknown {
  return (ctx) => fn.apply(target, inject(ctx, ctx.error)) as unknown;
}

/** A `ContainerRequestFilter` (one parameter) or `ContainerResponseFilter` (two) provider's `filter`. */
export function providerFilterCall(filter: Function, target: unknown): (ctx: RequestContext) => unknown {
  return filter.length >= 2
    ? (ctx) => filter.call(target, ctx, ctx.response) as unknown
    : (ctx) => filter.call(target, ctx) as unknown;
}

/** A mapper's result as an Observable, for the interceptors wrapping it. */
function toObservable(value: unknown): Observable<unknown> {
  if (value instanceof Promise) return from(value);
  if (typeof (value as { subscribe?: unknown })?.subscribe === 'function') return value as Observable<unknown>;
  return from([value]);
}

/** An exception mapper method's call, wrapped by the interceptors it carries the bindings of (`wrap`). */
export function mapperCall(
  fn: Function,
  target: unknown,
  inject: InjectedArgs,
  wrap: CallWrapper | undefined,
): (error: unknown, ctx: unknown) => unknown {
  const map = (error: unknown, ctx: unknown) => fn.apply(target, inject(ctx as RequestContext, error)) as unknown;
  if (!wrap) return map;
  return (error, ctx) => wrap([error], () => defer(() => toObservable(map(error, ctx))));
}

/** An `ExceptionMapper` provider's `toResponse`. */
export function providerMapperCall(toResponse: Function, target: unknown): (error: unknown) => unknown {
  return (error) => toResponse.call(target, error) as unknown;
}
