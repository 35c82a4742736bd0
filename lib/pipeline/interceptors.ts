/** Method interceptors: which wrap an invocation, in priority order, each as an RxJS operator. */
import { defer } from 'rxjs/internal/observable/defer';
import type { Observable } from 'rxjs';
import { INTERCEPTOR, type InvocationContext, type MethodInterceptor } from '../decorators/interceptors';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';

interface CompiledInterceptor {
  readonly bindings: readonly string[];
  readonly priority: number;
  readonly instance: MethodInterceptor;
}

/** The application's interceptors, ready to wrap calls of methods carrying their bindings. */
export class InterceptorChain {
  readonly #interceptors: CompiledInterceptor[];

  constructor(interceptors: CompiledInterceptor[]) {
    this.#interceptors = interceptors.sort((a, b) => a.priority - b.priority);
  }

  /** Wraps each call of a method carrying `bindings` in every interceptor having one, the lowest priority outermost. */
  wrapperFor(
    resourceClass: Function,
    methodName: string,
    target: object,
    bindings: ReadonlySet<string>,
  ): CallWrapper | undefined {
    const selected = this.#interceptors.filter((i) => i.bindings.some((name) => bindings.has(name)));
    if (selected.length === 0) return undefined;
    return (args, call) => {
      const invocation: InvocationContext = { resourceClass, methodName, args, target };
      let chain: Observable<unknown> = defer(call);
      for (let i = selected.length - 1; i >= 0; i--) chain = chain.pipe(selected[i].instance.intercept(invocation));
      return chain;
    };
  }
}

/** Runs a call (a cold Observable factory) through a method's interceptors. */
export type CallWrapper = (args: unknown[], call: () => Observable<unknown>) => Observable<unknown>;

export function compileInterceptors(units: readonly Unit[], problems: ProblemCollector): InterceptorChain {
  const interceptors: CompiledInterceptor[] = [];
  for (const unit of units) {
    const declared = unit.meta.tags.get(INTERCEPTOR);
    if (!declared) continue;
    if (typeof (unit.instance as Partial<MethodInterceptor>).intercept !== 'function') {
      problems.add(
        locate(unit.type),
        '@Interceptor classes must have an intercept(invocation) method returning an RxJS operator',
      );
      continue;
    }
    interceptors.push({
      bindings: declared.bindings,
      priority: declared.priority,
      instance: unit.instance as MethodInterceptor,
    });
  }
  return new InterceptorChain(interceptors);
}
