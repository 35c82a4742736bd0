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

/** The characters of a body an exception's message quotes at most: it is logged, often whole, often more than once. */
const MESSAGE_CHARS = 1024;

/** The start of `text` for a message: whole when short, else its first characters (a pair never split) and `…`. */
function quote(text: string): string {
  if (text.length <= MESSAGE_CHARS) return text;
  const last = text.charCodeAt(MESSAGE_CHARS - 1);
  // A high surrogate as the last unit kept would leave half a character: it goes with its other half.
  const end = last >= 0xd800 && last <= 0xdbff ? MESSAGE_CHARS - 1 : MESSAGE_CHARS;
  return `${text.slice(0, end)}…`;
}

function isProblem(value: unknown): value is ProblemDetails {
  const problem = value as { status?: unknown; title?: unknown } | null;
  return typeof problem?.status === 'number' && typeof problem.title === 'string';
}

/**
 * The exception of a non-2xx answer: its message the problem's `detail` (else title), else the text body (1024
 * characters at most), else `HTTP <status>`; the consumed `Response` kept as `response`, problem JSON as `problem`.
 */
export async function exceptionFor(
  response: Response,
  limit = DEFAULT_LIMITS.maxBodySize,
): Promise<WebApplicationException> {
  const headers = Object.fromEntries(response.headers);
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
  const said = problem ? problem.detail || problem.title : text.trim() || undefined;
  // String(): a server's problem may hold a `detail` that is no string.
  const message = said === undefined ? undefined : quote(String(said));
  const options: WebApplicationExceptionOptions = { headers, problem, response };
  if (response.status === 405) {
    const allowed = (response.headers.get('allow') ?? '').trim().split(/\s*,\s*/);
    return new NotAllowedException(message, allowed.filter(Boolean), options);
  }
  if (response.status >= 300 && response.status < 400 && response.headers.has('location'))
    return new RedirectionException(response.headers.get('location')!, response.status, options);
  const Exception = STATUS_EXCEPTIONS.get(response.status);
  return Exception ? new Exception(message, options) : new WebApplicationException(message, response.status, options);
}
