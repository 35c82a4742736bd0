/**
 * Network failures of the client's calls, told from every other error by where they arose: fetch rejecting, or an
 * answer's body failing while it is read. Only they (and 502, 503, 504) are worth asking again. Their type says
 * nothing — fetch's are `TypeError`s, as a bug's are, and a browser's carry no cause — so they are marked where they
 * arise, and an error of a filter, a reader, the JSON mapper or the client itself never is.
 */

// Registered, not private: a second copy of the client in the same process (two bundles) marks errors alike.
const NETWORK_FAILURE = Symbol.for('rxrest.client.network-failure');

/** Marks `error` — a rejection of fetch or of reading a body — as a network failure, and throws it on. */
export function networkFailure(error: unknown): never {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error))
    Object.defineProperty(error, NETWORK_FAILURE, { value: true });
  throw error;
}

/** Whether `error` was marked by `networkFailure`. */
export function isNetworkFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && NETWORK_FAILURE in error;
}
