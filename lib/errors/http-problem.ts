/** Builds the exception for an error the framework raises, as the matching WebApplicationException subtype. */
import { ErrorCodes, problemDetails, type ErrorCode, type Violation } from './problem-details';
import { NotAllowedException, STATUS_EXCEPTIONS, WebApplicationException } from './web-application-exception';

/** A framework error as its usual subtype (a `NotFoundException` mapper sees routing 404s) with a problem body. */
export function httpProblem(
  code: ErrorCode,
  detail: string,
  options: {
    violations?: readonly Violation[];
    cause?: unknown;
    allowed?: readonly string[];
    headers?: Record<string, string>;
  } = {},
): WebApplicationException {
  const problem = problemDetails(code, detail, options.violations);
  const rest = { problem, cause: options.cause, headers: options.headers };
  if (code === 'RXREST_METHOD_NOT_ALLOWED') return new NotAllowedException(detail, options.allowed ?? [], rest);
  const { status } = ErrorCodes[code];
  const Type = STATUS_EXCEPTIONS.get(status);
  // A code whose status has no subtype still answers with its own status.
  return Type ? new Type(detail, rest) : new WebApplicationException(detail, status, rest);
}
