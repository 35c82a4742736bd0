/**
 * What Deno's `Deno.serve` tells of an answer's delivery. Deno 2.9 keeps a legacy `request.signal` for the requests it
 * serves: once read, it aborts after every answer, successful ones too, and Deno warns at the first read. The handler's
 * second argument, which `app.fetch` receives as its environment, tells instead: `completed` settles once the answer
 * was sent, or given up. Knows nothing of rxrest's requests.
 */

/** The info `Deno.serve` hands its handler beside each request (the part rxrest reads). */
export interface DenoServeInfo {
  readonly remoteAddr: unknown;
  /** Resolves once the answer was sent; rejects (Deno documents) when it could not be. */
  readonly completed: Promise<void>;
}

/**
 * Whether `environment` is Deno's `ServeHandlerInfo`: then its request's `signal` is Deno's legacy one, not to be read.
 * Asked with `in`, which runs none of its getters (reading `completed` makes the promise).
 */
export function isDenoServeInfo(environment: unknown): environment is DenoServeInfo {
  return (
    typeof environment === 'object' && environment !== null && 'completed' in environment && 'remoteAddr' in environment
  );
}
