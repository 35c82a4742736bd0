/** The timeouts `listen()` gives Node's servers, derived from `framework.http.*-timeout`. */

/** Milliseconds, 0 for none. */
export interface RequestTimeouts {
  readonly headersTimeout: number;
  readonly requestTimeout: number;
}

/**
 * A shorter request timeout bounds the headers too: given a longer headers timeout Node swaps the two, and a 1 s
 * request-timeout under the 60 s default let a request whose body stalled run for 60 s.
 */
export function headersTimeoutOf(timeouts: RequestTimeouts): number {
  const { headersTimeout, requestTimeout } = timeouts;
  return requestTimeout > 0 && (headersTimeout === 0 || headersTimeout > requestTimeout)
    ? requestTimeout
    : headersTimeout;
}

const NODE_CHECKING_INTERVAL_MS = 30_000;

/** Node enforces timeouts only at these checks: half the shorter one keeps a stall within 1.5 times its timeout. */
export function checkingInterval(timeouts: RequestTimeouts): number {
  const set = [timeouts.headersTimeout, timeouts.requestTimeout].filter((timeout) => timeout > 0);
  return Math.max(1, Math.min(NODE_CHECKING_INTERVAL_MS, Math.floor(Math.min(...set) / 2)));
}

const NODE_HANDSHAKE_TIMEOUT_MS = 120_000;

/** The headers timeout starts after the handshake: a client that never finished one was held for Node's 120 s. */
export function handshakeTimeoutOf(timeouts: RequestTimeouts): number {
  const headers = headersTimeoutOf(timeouts);
  return headers > 0 ? Math.min(headers, NODE_HANDSHAKE_TIMEOUT_MS) : NODE_HANDSHAKE_TIMEOUT_MS;
}
