/** Compiles `@ServerExceptionMapper` methods and `ExceptionMapper` providers into local and global tables. */
import { UNWRAP_EXCEPTION, type UnwrapRule } from '../decorators/exceptions';
import { INTERCEPTOR_BINDINGS } from '../decorators/interceptors';
import { OPENAPI_RESPONSES } from '../decorators/openapi';
import { DEFAULT_PRIORITY, EXCEPTION_MAPPER, PRIORITY, PROVIDER } from '../decorators/providers';
import { ExceptionMappers, mapperTable, type CompiledMapper } from '../errors/exception-mappers';
import { readDesignType } from '../metadata/reflect-shim';
import { findClassMeta, registeredClasses } from '../metadata/store';
import { byPosition, compileInjection, isErrorClass, mapperCall, providerMapperCall } from '../pipeline/inject';
import type { InterceptorChain } from '../pipeline/interceptors';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';

export interface MapperSet {
  readonly global: CompiledMapper[];
  readonly local: Map<Function, CompiledMapper[]>;
  readonly unwrapRules: UnwrapRule[];
}

function methodMappers(unit: Unit, problems: ProblemCollector, interceptors: InterceptorChain): CompiledMapper[] {
  const mappers: CompiledMapper[] = [];
  for (const method of unit.meta.methods.values()) {
    const declared = method.tags.get(EXCEPTION_MAPPER);
    if (!declared) continue;
    const where = locate(unit.type, method.name);
    const paramTypes =
      (readDesignType('design:paramtypes', unit.type.prototype, method.name) as unknown[] | undefined) ?? [];
    const types = declared.types.length ? declared.types : paramTypes.filter(isErrorClass);
    if (types.length === 0) {
      problems.add(
        where,
        'an exception mapper needs the exception types: give them to @ServerExceptionMapper(...) or type its first parameter',
      );
      continue;
    }
    const inject = problems.attempt(where, () => compileInjection(unit.type, method.name, byPosition.mapper));
    if (!inject) continue;
    const fn = (unit.instance as Record<string, Function>)[method.name];
    // Interceptors only when the mapper carries the binding itself.
    const bindings = method.tags.get(INTERCEPTOR_BINDINGS);
    const wrap = bindings?.length
      ? interceptors.wrapperFor(unit.type, method.name, unit.instance, new Set(bindings))
      : undefined;
    const map = mapperCall(fn, unit.instance, inject, wrap);
    const priority = declared.priority ?? method.tags.get(PRIORITY) ?? DEFAULT_PRIORITY;
    const documented = method.tags.get(OPENAPI_RESPONSES);
    for (const type of types) mappers.push({ type, priority, name: where, map, documented });
  }
  return mappers;
}

function providerMapper(unit: Unit, problems: ProblemCollector): CompiledMapper | undefined {
  const options = unit.meta.tags.get(PROVIDER);
  const toResponse = (unit.instance as { toResponse?: Function }).toResponse;
  if (!options || typeof toResponse !== 'function') return undefined;
  const type =
    options.exception ??
    (readDesignType('design:paramtypes', unit.type.prototype, 'toResponse') as unknown[] | undefined)?.[0];
  if (!isErrorClass(type)) {
    problems.add(
      locate(unit.type),
      'an ExceptionMapper provider must name its exception type: @Provider({ exception: MyError })',
    );
    return undefined;
  }
  const priority = options.priority ?? unit.meta.tags.get(PRIORITY) ?? DEFAULT_PRIORITY;
  const documented =
    unit.meta.tags.get(OPENAPI_RESPONSES) ?? unit.meta.methods.get('toResponse')?.tags.get(OPENAPI_RESPONSES);
  return { type, priority, name: unit.type.name, map: providerMapperCall(toResponse, unit.instance), documented };
}

/** Every `@UnwrapException` rule declared on any decorated class (wrappers need not be listed in the application). */
function unwrapRules(): UnwrapRule[] {
  const rules: UnwrapRule[] = [];
  for (const type of registeredClasses()) {
    const rule = findClassMeta(type)?.tags.get(UNWRAP_EXCEPTION);
    if (rule) rules.push(rule.types.length ? rule : { ...rule, types: [type as never] });
  }
  return rules;
}

export function compileMappers(
  units: readonly Unit[],
  problems: ProblemCollector,
  interceptors: InterceptorChain,
): MapperSet {
  const set: MapperSet = { global: [], local: new Map(), unwrapRules: unwrapRules() };
  for (const unit of units) {
    const mappers = methodMappers(unit, problems, interceptors);
    if (unit.isResource) set.local.set(unit.type, mappers);
    else set.global.push(...mappers);
    const provider = providerMapper(unit, problems);
    if (provider) set.global.push(provider);
  }
  return set;
}

/** The mappers seen by the endpoints of one resource class. */
export function mappersFor(set: MapperSet, resource: Function | undefined): ExceptionMappers {
  return new ExceptionMappers(
    mapperTable(resource ? (set.local.get(resource) ?? []) : []),
    mapperTable(set.global),
    set.unwrapRules,
  );
}
