/** The HTTP methods telemetry names as they are: a client's own method is any token, and would name a series each. */

/** RFC 9110 §9.3's methods and PATCH (RFC 5789), as OpenTelemetry's HTTP conventions know them. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** `method` when known, else `_OTHER` (OpenTelemetry's `http.request.method` for any other). */
export function knownMethod(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}
