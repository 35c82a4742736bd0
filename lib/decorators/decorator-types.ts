/** Decorator signatures shared by the decorator modules (TypeScript legacy decorators). */

/** Usable on a class or on one of its methods. */
export type ClassOrMethodDecorator = (
  target: object,
  propertyKey?: string | symbol,
  descriptor?: PropertyDescriptor,
) => void;

/** Usable on a method parameter or on a class property (the bean-parameter form). */
export type ParamOrPropertyDecorator = (
  target: object,
  propertyKey: string | symbol | undefined,
  parameterIndex?: number,
) => void;

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
