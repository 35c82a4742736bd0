/**
 * How much of an answer a client holds at once (a whole body, one item of a stream), so a hostile server fails the call
 * instead of the caller's process. Bytes streamed through as they come are not held, not bounded.
 */
import { readAtMost } from '../runtime/read-at-most';
import { networkFailure } from './network-failure';

/** What a client holds of one answer at most. */
export interface AnswerLimits {
  /** The largest whole answer read into memory (a JSON value, a text, a form, an error's body), in bytes (10 MiB). */
  readonly maxBodySize?: number;
  /** The largest item of a streamed answer (a line, a record, an SSE event, an array item), in characters (1 Mi). */
  readonly maxItemSize?: number;
}

export type ResolvedLimits = Required<AnswerLimits>;

export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  maxBodySize: 10 * 1024 * 1024,
  maxItemSize: 1024 * 1024,
});

export function answerLimits(options: AnswerLimits | undefined): ResolvedLimits {
  const pick = (name: keyof AnswerLimits): number => {
    const value = options?.[name];
    if (value === undefined) return DEFAULT_LIMITS[name];
    if (!Number.isSafeInteger(value) || value < 0)
      throw new TypeError(
        `limits.${name} must be a whole number of ${name === 'maxBodySize' ? 'bytes' : 'characters'}, got ${value}`,
      );
    return value;
  };
  return { maxBodySize: pick('maxBodySize'), maxItemSize: pick('maxItemSize') };
}

/** An answer (or one of its items) larger than the client's `limits`: the call fails and the connection is let go. */
export class ResponseTooLargeException extends Error {
  constructor(
    readonly limitName: keyof AnswerLimits,
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

/** The whole body, refused (and cancelled) past `limit` bytes: at once when its `Content-Length` says so. */
export async function boundedBytes(response: Response, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new ResponseTooLargeException('maxBodySize', limit);
  if (Number(response.headers.get('content-length') ?? Number.NaN) > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  return response.body ? readAtMost(response.body, limit, tooLarge, networkFailure) : new Uint8Array(0);
}

/** As UTF-8 text (a byte order mark dropped, as `Response.text()` does). */
export async function boundedText(response: Response, limit: number): Promise<string> {
  return new TextDecoder().decode(await boundedBytes(response, limit));
}
