/** A non-2xx answer as the `WebApplicationException` subtype of its status, with its headers and problem body. */
import { parseJsonBody } from '../json/safe-json';
import { boundedText, DEFAULT_LIMITS } from './answer-limits';
import type { ProblemDetails } from '../errors/problem-details';
import {
  NotAllowedException,
  RedirectionException,
  STATUS_EXCEPTIONS,
  WebApplicationException,
  type WebApplicationExceptionOptions,
} from '../errors/web-application-exception';

function isProblem(value: unknown): value is ProblemDetails {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { status?: unknown }).status === 'number' &&
    typeof (value as { title?: unknown }).title === 'string'
  );
}

/**
 * Reads the answer's body (a problem JSON, or text) and makes the exception: its message is the problem's
 * `detail` (else its title), else the text body, else `HTTP <status>`. The consumed `Response` is kept as
 * `response`, with the body parsed as `problem` when it was problem JSON. A body past `limit` bytes is not read on
 * (its connection is let go of): the exception then says only the status.
 */
export async function exceptionFor(
  response: Response,
  limit = DEFAULT_LIMITS.maxBodySize,
): Promise<WebApplicationException> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const text = await boundedText(response, limit).catch(() => '');
  let problem: ProblemDetails | undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      const parsed = parseJsonBody(text);
      if (isProblem(parsed)) problem = parsed;
    } catch {
      // Not JSON after all, or poisoned JSON: the text stays the message.
    }
  }
  const message = problem ? problem.detail || problem.title : text.trim() || undefined;
  const options: WebApplicationExceptionOptions = { headers, problem, response };
  if (response.status === 405)
    return new NotAllowedException(
      message,
      (response.headers.get('allow') ?? '')
        .split(',')
        .map((method) => method.trim())
        .filter(Boolean),
      options,
    );
  if (response.status >= 300 && response.status < 400 && response.headers.has('location'))
    return new RedirectionException(response.headers.get('location')!, response.status, options);
  const Exception = STATUS_EXCEPTIONS.get(response.status);
  return Exception ? new Exception(message, options) : new WebApplicationException(message, response.status, options);
}
