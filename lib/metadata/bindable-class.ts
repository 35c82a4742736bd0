/**
 * Which declared types name a class an answer or a value is bound to: the application's own classes (and `Date`),
 * not the runtime's (`Object`, `Array`, `Promise`, `Map`, `Uint8Array`, `Response`: any global constructor), nor a
 * stream (`Observable`, `Multi`) or a wrapper of the entity (`RestResponse`), through which a method answers. The
 * wrappers register themselves, so the client needs no import of them.
 */
import { Observable } from 'rxjs/internal/Observable';

const wrapperClasses = new Set<Function>();

export function markWrapperClass(type: Function): void {
  wrapperClasses.add(type);
}

function isWrapperClass(type: unknown): boolean {
  return typeof type === 'function' && wrapperClasses.has(type);
}

/**
 * Whether `type`, read from decorator metadata, is a class a JSON value can be bound to. A type the metadata could
 * not name (`Object`, `undefined`) is none.
 *
 * @example
 * isBindableClass(Fruit); // true
 * isBindableClass(Observable); // false: an Observable answers its items, it is not one
 */
export function isBindableClass(type: unknown): type is Function {
  if (typeof type !== 'function') return false;
  if (type === Date) return true;
  if ((globalThis as Record<string, unknown>)[type.name] === type) return false;
  const prototype: unknown = type.prototype;
  return (
    !isWrapperClass(type) &&
    type !== Observable &&
    !(prototype instanceof Observable) &&
    !(prototype instanceof Promise)
  );
}
