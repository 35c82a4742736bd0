/** The HTTP exceptions an application or the framework throws; each carries its status and an optional response. */
import type { RestResponse } from '../response/rest-response';
import type { ProblemDetails } from './problem-details';

export interface WebApplicationExceptionOptions {
  /** The response to send instead of the default text one. */
  response?: RestResponse<unknown> | Response;
  cause?: unknown;
  /** Extra headers for the default response, such as `Allow` on a 405. */
  headers?: Record<string, string>;
  /** Set on errors the framework raises itself: the default response is then RFC 9457 problem JSON. */
  problem?: ProblemDetails;
}

/**
 * An error that carries an HTTP status. Thrown from a resource method, it answers with that status and
 * its message as a `text/plain` body, unless an exception mapper handles it first.
 *
 * @example
 * throw new WebApplicationException('Teapot only', 418);
 */
export class WebApplicationException extends Error {
  readonly status: number;
  readonly response?: RestResponse<unknown> | Response;
  readonly headers: Record<string, string>;
  /** The application gave the message (so it is meant for the client). */
  readonly hasMessage: boolean;
  readonly problem?: ProblemDetails;

  constructor(message?: string, status = 500, options: WebApplicationExceptionOptions = {}) {
    super(message ?? `HTTP ${status}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.response = options.response;
    this.headers = options.headers ?? {};
    this.hasMessage = message !== undefined;
    this.problem = options.problem;
  }
}

function subtype(status: number, name: string) {
  const Sub = class extends WebApplicationException {
    constructor(message?: string, options?: WebApplicationExceptionOptions) {
      super(message, status, options);
    }
  };
  Object.defineProperty(Sub, 'name', { value: name });
  return Sub;
}

/** 400 */
export class BadRequestException extends subtype(400, 'BadRequestException') {}
/** 401 */
export class NotAuthorizedException extends subtype(401, 'NotAuthorizedException') {}
/** 403 */
export class ForbiddenException extends subtype(403, 'ForbiddenException') {}
/** 404 */
export class NotFoundException extends subtype(404, 'NotFoundException') {}
/** 406 */
export class NotAcceptableException extends subtype(406, 'NotAcceptableException') {}
/** 409 */
export class ConflictException extends subtype(409, 'ConflictException') {}
/** 410 */
export class GoneException extends subtype(410, 'GoneException') {}
/** 412 */
export class PreconditionFailedException extends subtype(412, 'PreconditionFailedException') {}
/** 413 */
export class PayloadTooLargeException extends subtype(413, 'PayloadTooLargeException') {}
/** 415 */
export class NotSupportedException extends subtype(415, 'NotSupportedException') {}
/** 500 */
export class InternalServerErrorException extends subtype(500, 'InternalServerErrorException') {}
/** 503 */
export class ServiceUnavailableException extends subtype(503, 'ServiceUnavailableException') {}

/** 405; `allowed` becomes the `Allow` header (RFC 9110 §15.5.6). */
export class NotAllowedException extends WebApplicationException {
  readonly allowed: readonly string[];

  constructor(message?: string, allowed: readonly string[] = [], options: WebApplicationExceptionOptions = {}) {
    super(message, 405, {
      ...options,
      headers: { ...options.headers, ...(allowed.length ? { allow: allowed.join(', ') } : {}) },
    });
    this.allowed = allowed;
  }
}

/** A 3xx answer with a `Location`. */
export class RedirectionException extends WebApplicationException {
  readonly location: string;

  constructor(location: string | URL, status = 303, options: WebApplicationExceptionOptions = {}) {
    super(undefined, status, { ...options, headers: { ...options.headers, location: String(location) } });
    this.location = String(location);
  }
}

/** The subtype of each status that has one, as a client reads an answer back into an exception. */
export const STATUS_EXCEPTIONS: ReadonlyMap<
  number,
  new (message?: string, options?: WebApplicationExceptionOptions) => WebApplicationException
> = new Map(
  [
    BadRequestException,
    NotAuthorizedException,
    ForbiddenException,
    NotFoundException,
    NotAcceptableException,
    ConflictException,
    GoneException,
    PreconditionFailedException,
    PayloadTooLargeException,
    NotSupportedException,
    InternalServerErrorException,
    ServiceUnavailableException,
  ].map((Type) => [new Type().status, Type]),
);
