/** Method interceptors: binding decorators and the interceptor classes that wrap an invocation. */
import type { MonoTypeOperatorFunction } from 'rxjs';
import { classMeta, metaKey } from '../metadata/store';
import { DEFAULT_PRIORITY } from './providers';
import { memberMeta, type ClassOrMethodDecorator } from './decorator-types';

/** What an interceptor knows of the call it wraps. */
export interface InvocationContext {
  readonly resourceClass: Function;
  readonly methodName: string;
  /** The arguments; an interceptor may replace entries before the call happens. */
  readonly args: unknown[];
  /** The resource instance the method is called on. */
  readonly target: object;
}

/**
 * Around advice as an RxJS operator: it receives the invocation as a cold Observable (subscribing calls
 * the method) and returns what the caller sees, so it can time, retry, replace or map the result.
 *
 * @example
 * \@Interceptor(Timed) class TimingInterceptor implements MethodInterceptor {
 *   intercept(inv: InvocationContext) {
 *     return (call$) => defer(() => { const t = Date.now(); return call$.pipe(finalize(() => log(Date.now() - t))); });
 *   }
 * }
 */
export interface MethodInterceptor {
  intercept(invocation: InvocationContext): MonoTypeOperatorFunction<unknown>;
}

export type InterceptorBindingDecorator = ClassOrMethodDecorator & { readonly bindingName: string };

export const INTERCEPTOR_BINDINGS = metaKey<string[]>('interceptor-bindings');
export const INTERCEPTOR = metaKey<{ bindings: string[]; priority: number }>('interceptor');

/** Creates an interceptor-binding decorator, to put on interceptors and on what they wrap. */
export function InterceptorBinding(name: string): InterceptorBindingDecorator {
  const decorator: ClassOrMethodDecorator = (target, propertyKey) =>
    memberMeta(target, propertyKey).tags.push(INTERCEPTOR_BINDINGS, name);
  return Object.assign(decorator, { bindingName: name });
}

/** Declares a {@link MethodInterceptor} class for the given bindings; lower priority wraps outermost. */
export function Interceptor(
  ...bindings: (InterceptorBindingDecorator | { priority: number })[]
): (target: Function) => void {
  const names = bindings
    .filter((b): b is InterceptorBindingDecorator => typeof b === 'function')
    .map((b) => b.bindingName);
  const options = bindings.find((b): b is { priority: number } => typeof b !== 'function');
  return (target) =>
    classMeta(target).tags.set(INTERCEPTOR, { bindings: names, priority: options?.priority ?? DEFAULT_PRIORITY });
}
