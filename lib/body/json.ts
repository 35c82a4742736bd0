/** Safe JSON parsing: syntax errors and prototype-poisoning keys become 400 problems. */
import { httpProblem } from '../errors/http-problem';

/** The keys `parseJsonBody` refuses (prototype pollution), as one pattern to test a whole chunk of items with. */
export const POISONED_KEYS = /__proto__|constructor/;

/**
 * Parses `text` as JSON. Objects with a `__proto__` key, or a `constructor` key holding a `prototype`,
 * are refused: merged into other objects later, they would change prototypes (prototype poisoning).
 * `checkKeys = false` skips that for text already known free of those keys (a whole chunk tested at once).
 */
export function parseJsonBody(text: string, checkKeys = true): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw httpProblem(
      'RXREST_MALFORMED_BODY',
      `The request body is not valid JSON: ${error instanceof Error ? error.message : 'syntax error'}`,
    );
  }
  if (checkKeys && (text.includes('__proto__') || text.includes('constructor'))) rejectPoisonedKeys(value);
  return value;
}

function rejectPoisonedKeys(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) throw forbidden('__proto__');
    const ctor = (node as Record<string, unknown>).constructor;
    if (
      Object.prototype.hasOwnProperty.call(node, 'constructor') &&
      typeof ctor === 'object' &&
      ctor !== null &&
      Object.prototype.hasOwnProperty.call(ctor, 'prototype')
    ) {
      throw forbidden('constructor.prototype');
    }
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
}

function forbidden(key: string): Error {
  return httpProblem('RXREST_FORBIDDEN_PROPERTY', `The request body contains the forbidden key "${key}"`);
}
