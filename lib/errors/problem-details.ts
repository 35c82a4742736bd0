/** RFC 9457 problem details for the errors the framework raises itself, with one table of stable codes. */

/** One invalid input, as listed in a validation problem. */
export interface Violation {
  /** Where the value came from: `body`, `query`, `path`, `header`, `cookie`, `form`, `matrix`, `part`. */
  readonly in: string;
  /** The parameter name, or the dotted path inside a body (`items.0.name`). */
  readonly field: string;
  readonly message: string;
}

export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** A stable code from {@link ErrorCodes}, for clients to branch on. */
  readonly code: ErrorCode;
  readonly violations?: readonly Violation[];
}

/** Every error code the framework answers with (a spec holds docs/errors.md's table to it: none changes silently). */
export const ErrorCodes = {
  RXREST_ROUTE_NOT_FOUND: { status: 404, title: 'Not Found' },
  RXREST_METHOD_NOT_ALLOWED: { status: 405, title: 'Method Not Allowed' },
  RXREST_NOT_ACCEPTABLE: { status: 406, title: 'Not Acceptable' },
  RXREST_UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
  RXREST_MALFORMED_PATH: { status: 400, title: 'Bad Request' },
  RXREST_PATH_CONTROL_CHARACTER: { status: 400, title: 'Bad Request' },
  RXREST_INVALID_HOST: { status: 400, title: 'Bad Request' },
  RXREST_MALFORMED_BODY: { status: 400, title: 'Bad Request' },
  RXREST_MISSING_BODY: { status: 400, title: 'Bad Request' },
  RXREST_FORBIDDEN_PROPERTY: { status: 400, title: 'Bad Request' },
  RXREST_VALIDATION_FAILED: { status: 400, title: 'Bad Request' },
  RXREST_INVALID_PARAMETER: { status: 400, title: 'Bad Request' },
  RXREST_PARAMETER_NOT_FOUND: { status: 404, title: 'Not Found' },
  RXREST_BODY_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  RXREST_BODY_TIMEOUT: { status: 408, title: 'Request Timeout' },
  RXREST_PART_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  RXREST_MALFORMED_MULTIPART: { status: 400, title: 'Bad Request' },
  RXREST_PART_UNREADABLE: { status: 400, title: 'Bad Request' },
  RXREST_INTERNAL_ERROR: { status: 500, title: 'Internal Server Error' },
  RXREST_STREAM_NOT_FOUND: { status: 404, title: 'Not Found' },
  RXREST_BROADCAST_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  RXREST_BROADCAST_EVENT_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  RXREST_BROADCAST_TOO_MANY_TOPICS: { status: 503, title: 'Service Unavailable' },
  RXREST_RESERVED_TOPIC: { status: 400, title: 'Bad Request' },
  RXREST_MALFORMED_LAST_EVENT_ID: { status: 400, title: 'Bad Request' },
  RXREST_UNAUTHORIZED: { status: 401, title: 'Unauthorized' },
  RXREST_KEYS_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  RXREST_FORBIDDEN: { status: 403, title: 'Forbidden' },
  RXREST_RATE_LIMITED: { status: 429, title: 'Too Many Requests' },
  RXREST_TOO_MANY_STREAMS: { status: 429, title: 'Too Many Requests' },
  RXREST_STREAM_CAPACITY: { status: 503, title: 'Service Unavailable' },
  RXREST_UPLOADS_FULL: { status: 503, title: 'Service Unavailable' },
  RXREST_MCP_SESSION_CAPACITY: { status: 503, title: 'Service Unavailable' },
  RXREST_UPGRADE_REQUIRED: { status: 426, title: 'Upgrade Required' },
  RXREST_MALFORMED_HANDSHAKE: { status: 400, title: 'Bad Request' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ErrorCodes;

export const PROBLEM_JSON = 'application/problem+json';

export function problemDetails(code: ErrorCode, detail: string, violations?: readonly Violation[]): ProblemDetails {
  const { status, title } = ErrorCodes[code];
  const type = `urn:rxrest:problem:${code.slice('RXREST_'.length).toLowerCase().replace(/_/g, '-')}`;
  return violations ? { type, title, status, detail, code, violations } : { type, title, status, detail, code };
}
