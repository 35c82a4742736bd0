import { readAtMost } from '../runtime/read-at-most';
import { networkFailure } from './network-failure';

/**
 * How much of an answer a client holds at once: a whole body read into memory and one item of a stream are bounded,
 * so a broken or hostile server (an endless body, a line that never ends) fails the call instead of the caller's
 * process. Bytes streamed through as they come (an octet stream, a reader's own stream) are not held, not bounded.
 */

/** What a client holds of one answer at most. */
export interface AnswerLimits {
  /**
   * The largest whole answer read into memory, in bytes: a JSON value, a text, a multipart form, the body of an error
   * (10 MiB by default, the server's `max-body-size`).
   */
  readonly maxBodySize?: number;
  /**
   * The largest single item of a streamed answer, in characters: an NDJSON line, a JSON text sequence record, an SSE
   * event, an item of a JSON array (1 Mi by default, the server's `max-stream-item-size`).
   */
  readonly maxItemSize?: number;
}

export type ResolvedLimits = Required<AnswerLimits>;

export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  maxBodySize: 10 * 1024 * 1024,
  maxItemSize: 1024 * 1024,
});

/** The limits of `options`, each a non-negative whole number or its default. */
export function answerLimits(options: AnswerLimits | undefined): ResolvedLimits {
  const pick = (value: number | undefined, name: keyof AnswerLimits): number => {
    if (value === undefined) return DEFAULT_LIMITS[name];
    if (!Number.isSafeInteger(value) || value < 0)
      throw new TypeError(
        `limits.${name} must be a whole number of ${name === 'maxBodySize' ? 'bytes' : 'characters'}, got ${value}`,
      );
    return value;
  };
  return {
    maxBodySize: pick(options?.maxBodySize, 'maxBodySize'),
    maxItemSize: pick(options?.maxItemSize, 'maxItemSize'),
  };
}

/**
 * An answer (or one of its items) larger than the client's limits: the call fails with it and the connection is let
 * go of. Raise `limits` in the client's options when such answers are expected.
 */
export class ResponseTooLargeException extends Error {
  constructor(
    /** `maxBodySize` or `maxItemSize`. */
    readonly limitName: keyof AnswerLimits,
    /** The limit passed, in bytes (`maxBodySize`) or characters (`maxItemSize`). */
    readonly limit: number,
  ) {
    super(
      limitName === 'maxBodySize'
        ? `The answer is larger than maxBodySize (${limit} bytes)`
        : `An item of the answer is larger than maxItemSize (${limit} characters)`,
    );
    this.name = 'ResponseTooLargeException';
  }
}

/**
 * The whole body of `response`, refused past `limit` bytes: at once when its `Content-Length` says so, else as soon
 * as that many have come. A refused body is cancelled, so its connection is let go of.
 */
export async function boundedBytes(response: Response, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new ResponseTooLargeException('maxBodySize', limit);
  if (Number(response.headers.get('content-length') ?? Number.NaN) > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  return response.body ? readAtMost(response.body, limit, tooLarge, networkFailure) : new Uint8Array(0);
}

/** The whole body of `response` as UTF-8 text (a byte order mark dropped, as `Response.text()` does), within `limit`. */
export async function boundedText(response: Response, limit: number): Promise<string> {
  return new TextDecoder().decode(await boundedBytes(response, limit));
}
