/** Reads parameter names from a function's source text, the TypeScript form of "retain parameter names". */
import { readDesignType } from './reflect-shim';
import type { MethodMeta } from './store';

/** `typed`: decorator metadata was emitted; `count`: the most any of these, or the decorators, counts. */
export function declaredParameters(type: Function, method: MethodMeta) {
  const fn = (type.prototype as Record<string, unknown>)[method.name] as Function;
  const designTypes = readDesignType('design:paramtypes', type.prototype, method.name) as unknown[] | undefined;
  const types = designTypes ?? [];
  const names = readParameterNames(fn) ?? [];
  const count = Math.max(types.length, fn.length, names.length, ...[...method.params.keys()].map((i) => i + 1));
  return { typed: designTypes !== undefined, types, names, count };
}

/**
 * `undefined` for a destructured parameter, or as a whole for native or bound functions. Comments, defaults and nested
 * brackets are skipped, so coverage instrumentation inside defaults does not confuse it.
 */
export function readParameterNames(fn: Function): (string | undefined)[] | undefined {
  const source = Function.prototype.toString.call(fn);
  const open = source.indexOf('(');
  if (open < 0 || source.includes('[native code]')) return undefined;
  const parts = splitTopLevel(source, open + 1);
  if (!parts) return undefined;
  return parts
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => /^(?:\.\.\.\s*)?([A-Za-z_$][\w$]*)\s*(?:=|$)/.exec(part)?.[1]);
}

function splitTopLevel(source: string, start: number): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = start; i < source.length; i++) {
    const ch = source[i];
    const next = source[i + 1];
    if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      i = end + 1;
      continue;
    }
    if (ch === '/' && next === '/') {
      const end = source.indexOf('\n', i + 2);
      i = end < 0 ? source.length : end;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = skipString(source, i);
      current += source.slice(i, end + 1);
      i = end;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) {
        parts.push(current);
        return parts;
      }
      depth--;
    } else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  return undefined;
}

function skipString(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === quote) return i;
  }
  return source.length - 1;
}
