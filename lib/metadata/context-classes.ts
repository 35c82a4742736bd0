/** The classes of context parameters, registered by the server: the REST client leaves them out of a request. */
const contextClasses = new Set<Function>();

export function markContextClass(type: Function): void {
  contextClasses.add(type);
}

export function isContextClass(type: unknown): boolean {
  return typeof type === 'function' && contextClasses.has(type);
}
