/** What `Deno.serve` tells of an answer's delivery, in its handler's second argument (`app.fetch`'s environment). */

/** The info `Deno.serve` hands its handler beside each request (the part rxrest reads). */
export interface DenoServeInfo {
  readonly remoteAddr: unknown;
  /** Resolves once the answer was sent; rejects (Deno documents) when it could not be. */
  readonly completed: Promise<void>;
}

/**
 * Whether `environment` is Deno's `ServeHandlerInfo`: then the request's legacy `signal`, once read, aborts after every
 * answer (and Deno warns). Asked with `in`, as reading `completed` makes the promise.
 */
export function isDenoServeInfo(environment: unknown): environment is DenoServeInfo {
  return (
    typeof environment === 'object' && environment !== null && 'completed' in environment && 'remoteAddr' in environment
  );
}
