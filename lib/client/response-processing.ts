/**
 * An answer the client received but could not read (JSON that does not parse or bind, a poisoned key, a reader's
 * refusal): the server's fault or a contract out of step, never the status of the call. Knows nothing of reading.
 */
import { WebApplicationException } from '../errors/web-application-exception';

/**
 * A successful answer whose body could not be read into what the method returns. The readers speak of a "request
 * body" and carry 400 problems, as on the server; on the client that would read as the server refusing the call, so
 * their refusal is the `cause` of this one.
 */
export class ResponseProcessingException extends Error {
  constructor(
    /** The status of the answer (2xx). */
    readonly status: number,
    /** The answer's `Content-Type`. */
    readonly contentType: string,
    cause: WebApplicationException,
  ) {
    const detail = cause.problem?.detail ?? cause.message;
    const what = `The answer (${status} ${contentType || 'without a Content-Type'})`;
    // The readers' own words, said of the answer: "... is not valid JSON: Unexpected token".
    super(
      detail.startsWith('The request body ') ? `${what} ${detail.slice(17)}` : `${what} could not be read: ${detail}`,
      {
        cause,
      },
    );
    this.name = 'ResponseProcessingException';
  }
}

/** `error` as the fault of the answer `response` when a reader refused it (a WebApplicationException), else itself. */
export function answerFault(response: Response, error: unknown): unknown {
  if (!(error instanceof WebApplicationException)) return error;
  return new ResponseProcessingException(response.status, response.headers.get('content-type') ?? '', error);
}
