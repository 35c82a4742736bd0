/**
 * Network failures (fetch rejecting, a body failing mid-read), the only errors worth asking again: their type says
 * nothing (fetch's are `TypeError`s, as a bug's are), so they are marked where they arise.
 */

// Registered, not private: a second copy of the client in the same process (two bundles) marks errors alike.
const NETWORK_FAILURE = Symbol.for('rxrest.client.network-failure');

/** Marks `error` as a network failure, and throws it on. */
export function networkFailure(error: unknown): never {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error))
    Object.defineProperty(error, NETWORK_FAILURE, { value: true });
  throw error;
}

export function isNetworkFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && NETWORK_FAILURE in error;
}
