/** Finds the exception mapper for an error: nearest supertype, local before global, with unwrapping. */
import type { UnwrapRule, UnwrapStrategy } from '../decorators/exceptions';
import type { APIResponseOptions } from '../decorators/openapi';

/** A mapper compiled by the build step; `map` may return a response, a Promise or an Observable of one. */
export interface CompiledMapper {
  readonly type: Function;
  readonly priority: number;
  readonly name: string;
  readonly map: (error: unknown, ctx: unknown) => unknown;
  /** What the mapper answers, as its `@APIResponse` decorators say, for the API description. */
  readonly documented?: readonly APIResponseOptions[];
}

export interface ResolvedMapper {
  readonly mapper: CompiledMapper;
  /** The error to give the mapper: the thrown one, or a cause found by unwrapping. */
  readonly error: unknown;
}

type MapperTable = ReadonlyMap<Function, CompiledMapper>;

/** Builds a table keeping, per type, the mapper of lowest priority value (first registered on ties). */
export function mapperTable(mappers: readonly CompiledMapper[]): MapperTable {
  const table = new Map<Function, CompiledMapper>();
  for (const mapper of mappers) {
    const existing = table.get(mapper.type);
    if (!existing || mapper.priority < existing.priority) table.set(mapper.type, mapper);
  }
  return table;
}

function typeChain(error: object): Function[] {
  const chain: Function[] = [];
  let proto = Object.getPrototypeOf(error);
  for (; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) chain.push(proto.constructor);
  return chain;
}

/** Resolves mappers for one endpoint: its class-local table, then the global one. */
export class ExceptionMappers {
  constructor(
    readonly local: MapperTable,
    readonly global: MapperTable,
    readonly unwrapRules: readonly UnwrapRule[],
  ) {}

  /** Every answer the mappers an endpoint reaches document (`@APIResponse` on a mapper), local ones first. */
  get documented(): APIResponseOptions[] {
    return [...this.local.values(), ...this.global.values()].flatMap((mapper) => mapper.documented ?? []);
  }

  resolve(error: unknown, seen: Set<unknown> = new Set()): ResolvedMapper | undefined {
    if (typeof error !== 'object' || error === null || seen.has(error)) return undefined;
    seen.add(error);
    const strategy = this.#unwrapStrategy(error);
    const cause = (error as { cause?: unknown }).cause;
    if (!strategy || cause === undefined) return this.#direct(error);
    switch (strategy) {
      case 'UNWRAP_IF_NO_MATCH':
        return this.#direct(error) ?? this.resolve(cause, seen);
      case 'UNWRAP_IF_NO_EXACT_MATCH':
        return this.#exact(error) ?? this.resolve(cause, seen) ?? this.#direct(error);
      case 'ALWAYS':
        return this.resolve(cause, seen) ?? this.#direct(error);
    }
  }

  #direct(error: object): ResolvedMapper | undefined {
    const chain = typeChain(error);
    for (const table of [this.local, this.global]) {
      for (const type of chain) {
        const mapper = table.get(type);
        if (mapper) return { mapper, error };
      }
    }
    return undefined;
  }

  #exact(error: object): ResolvedMapper | undefined {
    const type = Object.getPrototypeOf(error)?.constructor as Function | undefined;
    const mapper = type && (this.local.get(type) ?? this.global.get(type));
    return mapper ? { mapper, error } : undefined;
  }

  #unwrapStrategy(error: object): UnwrapStrategy | undefined {
    for (const rule of this.unwrapRules)
      if (rule.types.some((type) => error instanceof (type as Function & { prototype: object }))) return rule.strategy;
    return undefined;
  }
}
