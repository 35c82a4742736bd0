/** Compiles filter methods, filter provider classes and RxJS operator filters into ordered pipeline steps. */
import type { MonoTypeOperatorFunction } from 'rxjs';
import {
  DEFAULT_PRIORITY,
  NAME_BINDINGS,
  PRE_MATCHING,
  PRIORITY,
  PROVIDER,
  REQUEST_FILTER,
  RESPONSE_FILTER,
} from '../decorators/providers';
import type { CompiledFilter } from '../pipeline/filters';
import type { RequestContext } from '../context/request-context';
import { byPosition, compileInjection, injectedCall, providerFilterCall } from '../pipeline/inject';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';

/** A filter written as a plain RxJS operator over request contexts, registered with `build({ filters })`. */
export interface OperatorFilter {
  readonly phase: 'pre-matching' | 'request' | 'response';
  readonly operator: MonoTypeOperatorFunction<RequestContext>;
  readonly priority?: number;
  /** Name bindings: the filter applies only to endpoints carrying all of them. */
  readonly bindings?: readonly string[];
  readonly name?: string;
}

export interface FilterSet {
  readonly preMatching: CompiledFilter[];
  readonly request: CompiledFilter[];
  readonly response: CompiledFilter[];
}

function methodFilters(unit: Unit, problems: ProblemCollector, set: FilterSet): void {
  const classBindings = unit.meta.tags.get(NAME_BINDINGS) ?? [];
  for (const method of unit.meta.methods.values()) {
    const requestOptions = method.tags.get(REQUEST_FILTER);
    const responseOptions = method.tags.get(RESPONSE_FILTER);
    if (!requestOptions && !responseOptions) continue;
    const where = locate(unit.type, method.name);
    const fn = (unit.instance as Record<string, Function>)[method.name];
    const inject = problems.attempt(where, () =>
      compileInjection(unit.type, method.name, requestOptions ? byPosition.requestFilter : byPosition.responseFilter),
    );
    if (!inject) continue;
    const bindings = [...classBindings, ...(method.tags.get(NAME_BINDINGS) ?? [])];
    const priority =
      (requestOptions ?? responseOptions)?.priority ??
      method.tags.get(PRIORITY) ??
      unit.meta.tags.get(PRIORITY) ??
      DEFAULT_PRIORITY;
    const base = {
      name: where,
      priority,
      bindings,
      nonBlocking: requestOptions?.nonBlocking ?? false,
      preMatching: requestOptions?.preMatching ?? false,
    };
    const run = injectedCall(fn, unit.instance, inject);
    if (requestOptions) (base.preMatching ? set.preMatching : set.request).push({ ...base, run });
    else set.response.push({ ...base, run });
  }
}

/** `ContainerRequestFilter` (one parameter) and `ContainerResponseFilter` (two) provider classes. */
function providerFilter(unit: Unit, set: FilterSet): void {
  const options = unit.meta.tags.get(PROVIDER);
  const filter = (unit.instance as { filter?: Function }).filter;
  if (!options || typeof filter !== 'function') return;
  const priority = options.priority ?? unit.meta.tags.get(PRIORITY) ?? DEFAULT_PRIORITY;
  const bindings = unit.meta.tags.get(NAME_BINDINGS) ?? [];
  const preMatching = unit.meta.tags.has(PRE_MATCHING);
  const base = { name: unit.type.name, priority, bindings, nonBlocking: false, preMatching };
  const run = providerFilterCall(filter, unit.instance);
  if (filter.length >= 2) set.response.push({ ...base, run });
  else (preMatching ? set.preMatching : set.request).push({ ...base, run });
}

export function compileFilters(
  units: readonly Unit[],
  operators: readonly OperatorFilter[],
  problems: ProblemCollector,
): FilterSet {
  const set: FilterSet = { preMatching: [], request: [], response: [] };
  for (const unit of units) {
    methodFilters(unit, problems, set);
    providerFilter(unit, set);
  }
  operators.forEach((op, index) => {
    const filter: CompiledFilter = {
      name: op.name ?? `operator filter ${index}`,
      priority: op.priority ?? DEFAULT_PRIORITY,
      bindings: op.bindings ?? [],
      nonBlocking: false,
      preMatching: op.phase === 'pre-matching',
      run: { operator: op.operator },
    };
    (op.phase === 'response' ? set.response : op.phase === 'request' ? set.request : set.preMatching).push(filter);
  });
  // Request filters run in ascending priority; response filters in descending (the specification's order).
  const stable = (a: CompiledFilter, b: CompiledFilter) => a.priority - b.priority;
  set.preMatching.sort(stable);
  set.request.sort(stable);
  set.response.sort((a, b) => b.priority - a.priority);
  return set;
}

/**
 * A problem for each `nonBlocking` request filter running after one without that setting (it could not run on the
 * event loop once the worker lane was entered).
 *
 * @example
 * checkFilterOrder([{ name: 'A#f', nonBlocking: false }, { name: 'B#g', nonBlocking: true }]); // one problem
 */
export function checkFilterOrder(
  filters: readonly Pick<CompiledFilter, 'name' | 'nonBlocking'>[],
): { where: string; message: string }[] {
  const firstBlocking = filters.findIndex((filter) => !filter.nonBlocking);
  if (firstBlocking < 0) return [];
  return filters
    .slice(firstBlocking + 1)
    .filter((filter) => filter.nonBlocking)
    .map((filter) => ({
      where: filter.name,
      message: `is a nonBlocking request filter but runs after ${filters[firstBlocking].name}, which is not; give it a lower priority`,
    }));
}
