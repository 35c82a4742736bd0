/**
 * Classes a method may return that wrap its entity rather than being it (`RestResponse`): the REST client never
 * binds an answer to them. They register themselves, so the client needs no import of them.
 */
const wrapperClasses = new Set<Function>();

export function markWrapperClass(type: Function): void {
  wrapperClasses.add(type);
}

export function isWrapperClass(type: unknown): boolean {
  return typeof type === 'function' && wrapperClasses.has(type);
}
