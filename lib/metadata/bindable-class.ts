/** Which declared types name a class a value is bound to (wrappers register themselves: the client imports none). */
import { Observable } from 'rxjs/internal/Observable';

const wrapperClasses = new Set<Function>();

export function markWrapperClass(type: Function): void {
  wrapperClasses.add(type);
}

/**
 * The application's own classes and `Date`: not a global constructor, a stream, or a wrapper of the entity.
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
    !wrapperClasses.has(type) &&
    type !== Observable &&
    !(prototype instanceof Observable) &&
    !(prototype instanceof Promise)
  );
}
