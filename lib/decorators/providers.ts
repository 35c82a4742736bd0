/** Decorators for filters, exception mappers, providers, name bindings and response defaults. */
import { classMeta, metaKey, type Class } from '../metadata/store';
import {
  memberMeta,
  memberTag,
  methodTag,
  methodTags,
  tagFactory,
  type ClassOrMethodDecorator,
  type MethodDecoratorFn,
} from './decorator-types';

export interface RequestFilterOptions {
  /** Run before routing; may change the method, URI and headers. Always on the event loop. */
  preMatching?: boolean;
  /** Run on the event loop even when the endpoint runs in the worker lane. */
  nonBlocking?: boolean;
  /** Lower runs first (default 5000, the specification's USER priority). */
  priority?: number;
}

export interface ResponseFilterOptions {
  /** Lower runs LAST for response filters, as in the specification (they run in reverse priority). */
  priority?: number;
}

export interface ProviderOptions {
  priority?: number;
  /** For an `ExceptionMapper` class: the exception type it maps. */
  exception?: Class<Error>;
  /** Limits the provider to one side; a client-only provider is ignored by the server. */
  constrainedTo?: 'server' | 'client';
}

export const REQUEST_FILTER = metaKey<RequestFilterOptions>('request-filter');
export const RESPONSE_FILTER = metaKey<ResponseFilterOptions>('response-filter');
export const EXCEPTION_MAPPER = metaKey<{ types: Class<unknown>[]; priority: number }>('exception-mapper');
export const PROVIDER = metaKey<ProviderOptions>('provider');
export const PRIORITY = metaKey<number>('priority');
export const NAME_BINDINGS = metaKey<string[]>('name-bindings');
export const RESPONSE_STATUS = metaKey<number>('response-status');
export const RESPONSE_HEADERS = metaKey<[string, string][]>('response-headers');
export const PRE_MATCHING = metaKey<true>('pre-matching');

/** The specification's USER priority: the default for filters, interceptors and mappers. */
export const DEFAULT_PRIORITY = 5000;

/**
 * Marks a method as a request filter, its parameters injected by type (`RequestContext`, `UriInfo`...). It may
 * return nothing (continue), a `RestResponse`/`Response` (answer now), or a Promise/Observable of those.
 */
export function ServerRequestFilter(options: RequestFilterOptions = {}): MethodDecoratorFn {
  return methodTag(REQUEST_FILTER, options);
}

/** Marks a method as a response filter; it also runs for handled exceptions and can take the error. */
export function ServerResponseFilter(options: ResponseFilterOptions = {}): MethodDecoratorFn {
  return methodTag(RESPONSE_FILTER, options);
}

/**
 * Marks a method as an exception mapper for the given types (or its first parameter's type). In a
 * resource class it applies to that class only; elsewhere it is global.
 */
export function ServerExceptionMapper(...types: Class<unknown>[]): MethodDecoratorFn;
export function ServerExceptionMapper(options: { value?: Class<unknown>[]; priority?: number }): MethodDecoratorFn;
export function ServerExceptionMapper(
  ...args: (Class<unknown> | { value?: Class<unknown>[]; priority?: number })[]
): MethodDecoratorFn {
  const first = args[0];
  const options = first !== undefined && typeof first !== 'function' ? first : undefined;
  const types = options ? (options.value ?? []) : (args as Class<unknown>[]);
  return methodTag(EXCEPTION_MAPPER, { types, priority: options?.priority ?? DEFAULT_PRIORITY });
}

/** Registers a provider class: a filter, an exception mapper, a reader, writer or interceptor. */
export function Provider(options: ProviderOptions = {}): (target: Function) => void {
  return (target) => classMeta(target).tags.set(PROVIDER, options);
}

/** Orders providers and filters: lower runs first. */
export const Priority: (priority: number) => ClassOrMethodDecorator = tagFactory(memberTag, PRIORITY);

/** A decorator made by {@link NameBinding}: put it on filters and on the resources they apply to. */
export type NameBindingDecorator = ClassOrMethodDecorator & { readonly bindingName: string };

/**
 * Creates a name-binding decorator: a filter carrying it applies only to resource classes and methods
 * that carry it too.
 *
 * @example
 * export const Audited = NameBinding('Audited');
 * \@Audited class AuditFilter { \@ServerRequestFilter() log(ctx: RequestContext) {} }
 * \@Path('orders') \@Audited class OrderResource {}
 */
export function NameBinding(name: string): NameBindingDecorator {
  const decorator: ClassOrMethodDecorator = (target, propertyKey) =>
    memberMeta(target, propertyKey).tags.push(NAME_BINDINGS, name);
  return Object.assign(decorator, { bindingName: name });
}

/** The status of a normal (non-`RestResponse`) result, e.g. 201. */
export const ResponseStatus: (status: number) => MethodDecoratorFn = tagFactory(methodTag, RESPONSE_STATUS);

/** A static header added to normal (non-`RestResponse`) results; repeatable. */
export function ResponseHeader(name: string, value: string): MethodDecoratorFn {
  return (target, propertyKey) => methodTags(target, propertyKey).push(RESPONSE_HEADERS, [name, value]);
}

/** Makes a `ContainerRequestFilter` provider class run before routing. */
export function PreMatching(target: Function): void {
  classMeta(target).tags.set(PRE_MATCHING, true);
}
