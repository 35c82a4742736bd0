/** `@UnwrapException`: which wrapper exceptions are looked through to map their cause. */
import { classMeta, metaKey, type Class } from '../metadata/store';

/** When a wrapper exception is unwrapped to find a mapper for its cause. */
export type UnwrapStrategy = 'UNWRAP_IF_NO_MATCH' | 'UNWRAP_IF_NO_EXACT_MATCH' | 'ALWAYS';

export const ExceptionUnwrapStrategy = {
  /** Unwrap only when neither the wrapper nor its supertypes have a mapper (the default). */
  UNWRAP_IF_NO_MATCH: 'UNWRAP_IF_NO_MATCH',
  /** Unwrap unless the wrapper's exact type has a mapper. */
  UNWRAP_IF_NO_EXACT_MATCH: 'UNWRAP_IF_NO_EXACT_MATCH',
  /** Unwrap first; fall back to the wrapper's mappers when no cause has one. */
  ALWAYS: 'ALWAYS',
} as const satisfies Record<UnwrapStrategy, UnwrapStrategy>;

export interface UnwrapRule {
  /** The wrapper types; the decorated class itself when empty. */
  readonly types: readonly Class<unknown>[];
  readonly strategy: UnwrapStrategy;
}

export const UNWRAP_EXCEPTION = metaKey<UnwrapRule>('unwrap-exception');

/**
 * Declares wrapper exceptions whose `cause` is mapped instead: on the wrapper class itself (its
 * subclasses inherit it), or on any class with the wrapper types listed.
 *
 * @example
 * \@UnwrapException() class ServiceError extends Error {}
 * \@UnwrapException({ value: [ExecutionError], strategy: 'ALWAYS' }) class Unwrapping {}
 */
export function UnwrapException(
  options: { value?: Class<unknown>[]; strategy?: UnwrapStrategy } | Class<unknown>[] = {},
): (target: Function) => void {
  const normalized = Array.isArray(options) ? { value: options } : options;
  return (target) =>
    classMeta(target).tags.set(UNWRAP_EXCEPTION, {
      types: normalized.value ?? [],
      strategy: normalized.strategy ?? 'UNWRAP_IF_NO_MATCH',
    });
}
