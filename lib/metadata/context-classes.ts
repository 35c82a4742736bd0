/**
 * The classes a parameter may be typed with to receive a context object. The server registers them (with
 * how to obtain each); the REST client only needs to know them, to leave such parameters out of a request
 * without loading the server.
 */
const contextClasses = new Set<Function>();

export function markContextClass(type: Function): void {
  contextClasses.add(type);
}

export function isContextClass(type: unknown): boolean {
  return typeof type === 'function' && contextClasses.has(type);
}
