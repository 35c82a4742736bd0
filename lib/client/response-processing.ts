/** Answers the client could not read: the server's fault or a contract out of step, never the call's status. */
import { WebApplicationException } from '../errors/web-application-exception';
import { baseType } from '../http/media-type';

/**
 * A successful answer that could not be read into what the method returns: its readers refused it (their 400 problem
 * is the `cause`), or it is of a media type the method does not produce (a proxy's HTML page).
 */
export class ResponseProcessingException extends Error {
  constructor(
    readonly status: number,
    readonly contentType: string,
    /** Said of the answer: "is not valid JSON: ...". */
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The answer (${status} ${contentType || 'without a Content-Type'}) ${reason}`, options);
    this.name = 'ResponseProcessingException';
  }
}

/** `error` as the fault of the answer when a reader refused it (a WebApplicationException), else itself. */
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
 * The refusal of a 2xx answer of a media type the call did not ask for and no reader takes. An answer without a body or
 * `Content-Type`, a redirect's target (it answers for itself) and a method producing nothing in particular pass.
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
