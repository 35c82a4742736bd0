/** Whether a method answers without a body, as far as its metadata and compiled code can tell. */
import type { EndpointFacts } from './endpoint-facts';

// `return` followed on its line by a value; `return;`, a bare `return` and `return undefined/null/void 0` give none.
const RETURNS_VALUE = /\breturn\b[ \t]*(?![ \t;}\r\n]|$|(?:undefined|null|void 0)[ \t]*(?:[;}\r\n]|$))/m;

/**
 * True for a method whose metadata names no return type (`void`, `Promise<void>`, or none written: decorator
 * metadata cannot tell them apart) and whose compiled code has no `return` of a value: it can only answer nothing
 * (204, or its `@ResponseStatus` with no body). Anything else may answer a body. The same source reading gives
 * parameter names (docs/openapi.md says what it cannot see).
 */
export function answersNothing(facts: EndpointFacts): boolean {
  if (facts.streams) return false;
  if (facts.returnType !== undefined && facts.returnType !== Promise) return false;
  const method = (facts.info.resourceClass.prototype as Record<string, unknown>)[facts.info.methodName];
  if (typeof method !== 'function') return false;
  return !RETURNS_VALUE.test(Function.prototype.toString.call(method));
}
