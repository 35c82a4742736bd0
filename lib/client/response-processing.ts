/**
 * An answer the client received but could not read (JSON that does not parse or bind, a poisoned key, a reader's
 * refusal): the server's fault or a contract out of step, never the status of the call. Knows nothing of reading.
 */
import { WebApplicationException } from '../errors/web-application-exception';
import { baseType } from '../http/media-type';

/**
 * A successful answer whose body could not be read into what the method returns: one its readers refused (the
 * reader's refusal, a 400 problem as on the server, is the `cause`: on the client it would read as the server refusing
 * the call), or one of a media type the method does not produce (a proxy's HTML page, bytes where JSON was promised).
 */
export class ResponseProcessingException extends Error {
  constructor(
    /** The status of the answer (2xx). */
    readonly status: number,
    /** The answer's `Content-Type`. */
    readonly contentType: string,
    /** What is wrong with it, said of the answer: "is not valid JSON: ...". */
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The answer (${status} ${contentType || 'without a Content-Type'}) ${reason}`, options);
    this.name = 'ResponseProcessingException';
  }
}

/** `error` as the fault of the answer `response` when a reader refused it (a WebApplicationException), else itself. */
export function answerFault(response: Response, error: unknown): unknown {
  if (!(error instanceof WebApplicationException)) return error;
  const detail = error.problem?.detail ?? error.message;
  // The readers' own words, said of the answer: "... is not valid JSON: Unexpected token".
  const reason = detail.startsWith('The request body ') ? detail.slice(17) : `could not be read: ${detail}`;
  return new ResponseProcessingException(response.status, response.headers.get('content-type') ?? '', reason, {
    cause: error,
  });
}

/** Whether the media type `answered` is one `wanted` names: equal, under a wildcard, or JSON for JSON. */
function fits(answered: string, wanted: string): boolean {
  if (wanted === '*/*' || wanted === answered) return true;
  if (wanted.endsWith('/*')) return answered.startsWith(wanted.slice(0, -1));
  // A JSON media type for another (`application/vnd.api+json` for `application/json`): read by its type all the same.
  return wanted.includes('json') && answered.includes('json');
}

/**
 * The refusal of a 2xx answer whose media type is none the call asked for (`accept`, else the method's `@Produces`)
 * and no registered reader takes; `undefined` when it fits. An answer without a body or a `Content-Type`, one the
 * call was redirected to (a `303 See Other`'s target answers for itself), and a method producing nothing in
 * particular are taken as they come.
 */
export function unexpectedType(
  response: Response,
  accepted: readonly string[],
  readable: (mediaType: string) => boolean,
): ResponseProcessingException | undefined {
  const contentType = response.headers.get('content-type');
  if (contentType === null || response.redirected || response.status === 204 || response.status === 205) return;
  const answered = baseType(contentType);
  const wanted = accepted.map(baseType).filter(Boolean);
  if (wanted.length === 0 || wanted.some((type) => fits(answered, type)) || readable(answered)) return;
  return new ResponseProcessingException(
    response.status,
    contentType,
    `is none of the media types the call accepts (${wanted.join(', ')})`,
  );
}
