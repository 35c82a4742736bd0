/** The timeouts `listen()` gives Node's servers, derived from `framework.http.*-timeout`: one rule each, one place. */

/** The request timeouts as `listen()` is told them, in milliseconds (0: none). */
export interface RequestTimeouts {
  readonly headersTimeout: number;
  readonly requestTimeout: number;
}

/**
 * The headers are part of the request, so a shorter request timeout bounds them too. Node needs it so: given a
 * headers timeout above the request timeout it swaps the two, and a 1 s request-timeout under the 60 s default
 * headers-timeout let a request whose body stalled run for 60 s.
 */
export function headersTimeoutOf(timeouts: RequestTimeouts): number {
  const { headersTimeout, requestTimeout } = timeouts;
  return requestTimeout > 0 && (headersTimeout === 0 || headersTimeout > requestTimeout)
    ? requestTimeout
    : headersTimeout;
}

/** Node's own default, and the longest wait between two checks of the header and request timeouts. */
const NODE_CHECKING_INTERVAL_MS = 30_000;

/**
 * How often Node checks the header and request timeouts: it enforces them only at these checks (every 30 s by
 * default), so a stalled request outlives a shorter timeout by up to the interval. Half the shorter timeout keeps a
 * stalled request at most 1.5 times its timeout; the default timeouts keep Node's default interval.
 */
export function checkingInterval(timeouts: RequestTimeouts): number {
  const set = [timeouts.headersTimeout, timeouts.requestTimeout].filter((timeout) => timeout > 0);
  return Math.max(1, Math.min(NODE_CHECKING_INTERVAL_MS, Math.floor(Math.min(...set) / 2)));
}

/** Node's own limit on a TLS handshake. */
const NODE_HANDSHAKE_TIMEOUT_MS = 120_000;

/**
 * How long a TLS handshake may take: the headers timeout, when shorter than Node's 120 s. The handshake comes before
 * the headers, and Node starts their timeout only once it is done, so a client that opened the TLS port and never
 * finished (or never began) its handshake was held for 120 s whatever the headers timeout said.
 */
export function handshakeTimeoutOf(timeouts: RequestTimeouts): number {
  const headers = headersTimeoutOf(timeouts);
  return headers > 0 ? Math.min(headers, NODE_HANDSHAKE_TIMEOUT_MS) : NODE_HANDSHAKE_TIMEOUT_MS;
}
