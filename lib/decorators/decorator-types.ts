/** Decorator signatures shared by the decorator modules (TypeScript legacy decorators), and where each one writes. */
import {
  classMeta,
  methodMeta,
  ownerOf,
  paramMeta,
  propertyMeta,
  type ClassMeta,
  type MetaKey,
  type MethodMeta,
  type ParamKind,
  type ParamMeta,
  type PropertyMeta,
  type Tags,
} from '../metadata/store';

/** Usable on a class or on one of its methods. */
export type ClassOrMethodDecorator = (
  target: object,
  propertyKey?: string | symbol,
  descriptor?: PropertyDescriptor,
) => void;

/** Usable on a method. */
export type MethodDecoratorFn = (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor) => void;

/** Usable on a method parameter or on a class property (the bean-parameter form). */
export type ParamOrPropertyDecorator = (
  target: object,
  propertyKey: string | symbol | undefined,
  parameterIndex?: number,
) => void;

export function memberMeta(target: object, propertyKey: string | symbol | undefined): ClassMeta | MethodMeta {
  return propertyKey === undefined
    ? classMeta(target as Function)
    : methodMeta(ownerOf(target), memberName(propertyKey));
}

export function methodTags(target: object, propertyKey: string | symbol): Tags {
  return methodMeta(ownerOf(target), memberName(propertyKey)).tags;
}

export function methodTag<T>(key: MetaKey<T>, value: T): MethodDecoratorFn {
  return (target, propertyKey) => methodTags(target, propertyKey).set(key, value);
}

export function memberTag<T>(key: MetaKey<T>, value: T): ClassOrMethodDecorator {
  return (target, propertyKey) => memberMeta(target, propertyKey).tags.set(key, value);
}

/** A decorator factory recording its one argument under `key`, where `tag` says (`methodTag`, `memberTag`...). */
export function tagFactory<T, D>(tag: (key: MetaKey<T>, value: T) => D, key: MetaKey<T>): (value: T) => D {
  return (value) => tag(key, value);
}

/** A constructor's parameter when there is no property key; made with `kind` if new. */
export function parameterMeta(
  target: object,
  propertyKey: string | symbol | undefined,
  parameterIndex: number,
  kind: ParamKind,
): ParamMeta {
  const method = propertyKey === undefined ? 'constructor' : memberName(propertyKey);
  return paramMeta(ownerOf(target), method, parameterIndex, kind);
}

/**
 * Records `value` under `key` on a parameter, or on a property of a bean-parameter class. A parameter is a body until
 * a kind decorator (applied after: decorators run bottom-up) says otherwise.
 */
export function paramTag<T>(key: MetaKey<T>, value: T): ParamOrPropertyDecorator {
  return (target, propertyKey, parameterIndex) =>
    (typeof parameterIndex === 'number'
      ? parameterMeta(target, propertyKey, parameterIndex, 'body')
      : memberProperty(target, propertyKey!)
    ).tags.set(key, value);
}

/** The name is read first, since a standard decorator has no target. */
export function memberProperty(target: object, propertyKey: string | symbol): PropertyMeta {
  const name = memberName(propertyKey);
  return propertyMeta(ownerOf(target), name);
}

export function memberName(propertyKey: string | symbol): string {
  if (typeof propertyKey === 'symbol') return propertyKey.description ?? propertyKey.toString();
  if (typeof propertyKey !== 'string') throw standardDecoratorError(propertyKey);
  return propertyKey;
}

/**
 * Standard (TC39) decorators hand a context object where legacy ones hand a property key: a compiler without
 * `experimentalDecorators` (what `bun init` and Deno write) would otherwise leave every route unregistered, silently.
 */
function standardDecoratorError(context: unknown): Error {
  const { kind, name } = (context ?? {}) as { kind?: unknown; name?: unknown };
  const what = typeof kind === 'string' ? `the ${kind} ${String(name ?? '')}`.trimEnd() : 'a member';
  return new Error(
    `rxrest's decorators are TypeScript's experimentalDecorators, but ${what} was decorated as a standard (TC39) ` +
      'decorator: set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of ' +
      'tsconfig.json (Bun reads it; under Deno, deno.json), see docs/runtimes.md',
  );
}
