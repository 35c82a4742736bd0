/** The error for a part its reader could not read: 400 unless an exception mapper handles it. */
import { problemDetails } from '../errors/problem-details';
import { BadRequestException } from '../errors/web-application-exception';

/**
 * A multipart part could not be read as its declared type (for example a JSON part that does not parse).
 * Map it with `@ServerExceptionMapper` to answer differently; unmapped it answers 400 problem JSON.
 *
 * @example
 * @ServerExceptionMapper() onPart(e: MultipartPartReadingException) { return RestResponse.status(422); }
 */
export class MultipartPartReadingException extends BadRequestException {
  constructor(
    /** The part name. */
    readonly partName: string,
    cause?: unknown,
  ) {
    const detail = `The part "${partName}" could not be read`;
    super(detail, {
      cause,
      problem: problemDetails('RXREST_PART_UNREADABLE', detail, [
        { in: 'part', field: partName, message: cause instanceof Error ? cause.message : 'unreadable' },
      ]),
    });
    this.name = 'MultipartPartReadingException';
  }
}
