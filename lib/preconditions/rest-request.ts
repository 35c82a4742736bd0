/** The injectable `Request` of the specification: conditional-request evaluation for a resource method. */
import { EntityTag } from '../http/entity-tag';
import { evaluatePreconditions, type ConditionalRequest, type CurrentRepresentation } from '../http/preconditions';
import { registerContextType } from '../params/context-types';
import { ResponseBuilder } from '../response/rest-response';

/**
 * The specification's `Request`, named so it does not shadow the Web `Request`: `evaluatePreconditions` answers a
 * builder for the 304 or 412 that ends the request (RFC 9110 §13.2.2), or `undefined` to proceed.
 *
 * @example
 * \@GET get(request: RestRequest) {
 *   const early = request.evaluatePreconditions(this.modified, new EntityTag('v1'));
 *   if (early) return early.build();
 *   return RestResponse.ResponseBuilder.ok(this.text).tag('v1').lastModified(this.modified).build();
 * }
 */
export class RestRequest {
  readonly #request: ConditionalRequest;
  readonly #now: () => Date;

  /** `now` decides which If-Modified-Since dates lie in the future. */
  constructor(request: ConditionalRequest, now: () => Date = () => new Date()) {
    this.#request = request;
    this.#now = now;
  }

  /** The request method, upper case. */
  get method(): string {
    return this.#request.method;
  }

  /**
   * Evaluates the preconditions against the current validators: none (the resource does not exist: `If-Match` fails,
   * `If-None-Match: *` passes), the Last-Modified `Date` (to the second), the ETag (or its text), or both.
   * If-Modified-Since counts for GET and HEAD only (RFC 9110 §13.1.3), unlike the Java framework.
   *
   * @example request.evaluatePreconditions(new EntityTag('v2'))?.build().status // 412 for `If-Match: "v1"`
   */
  evaluatePreconditions(): ResponseBuilder<never> | undefined;
  evaluatePreconditions(lastModified: Date): ResponseBuilder<never> | undefined;
  evaluatePreconditions(etag: EntityTag | string): ResponseBuilder<never> | undefined;
  evaluatePreconditions(lastModified: Date, etag: EntityTag | string): ResponseBuilder<never> | undefined;
  evaluatePreconditions(
    first?: Date | EntityTag | string,
    second?: EntityTag | string,
  ): ResponseBuilder<never> | undefined {
    const current = currentOf(first, second);
    const failure = evaluatePreconditions(this.#request, current, this.#now());
    if (!failure) return undefined;
    const builder = ResponseBuilder.status<never>(failure.status);
    for (const [name, value] of Object.entries(failure.headers)) builder.header(name, value);
    return builder;
  }
}

function asTag(tag: EntityTag | string): EntityTag {
  return typeof tag === 'string' ? new EntityTag(tag) : tag;
}

function currentOf(first?: Date | EntityTag | string, second?: EntityTag | string): CurrentRepresentation | undefined {
  if (first === undefined && second === undefined) return undefined;
  if (first instanceof Date) return { lastModified: first, etag: second === undefined ? undefined : asTag(second) };
  return { etag: first === undefined ? undefined : asTag(first) };
}

registerContextType(RestRequest, (ctx) => new RestRequest(ctx));
