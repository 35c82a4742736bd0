/** `/conditional`: a text resource with an ETag and a Last-Modified, read and replaced under preconditions. */
import { Consumes, EntityTag, GET, Path, Produces, PUT, RestRequest, RestResponse } from '../../lib';

/** Dates travel with one-second resolution, so the stored date is truncated like the header. */
function nowToSeconds(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

@Path('conditional')
@Produces('text/plain')
export class ConditionalResource {
  #text = 'Some resource';
  #version = 1;
  #lastModified = nowToSeconds();

  @GET
  get(request: RestRequest): RestResponse<string> {
    return request.evaluatePreconditions(this.#lastModified, this.#tag())?.build() ?? this.#current();
  }

  @PUT
  @Consumes('text/plain')
  put(request: RestRequest, text: string): RestResponse<string> {
    const early = request.evaluatePreconditions(this.#lastModified, this.#tag());
    if (early) return early.build();
    this.#text = text;
    this.#version += 1;
    this.#lastModified = nowToSeconds();
    return this.#current();
  }

  #tag(): EntityTag {
    return new EntityTag(`v${this.#version}`);
  }

  #current(): RestResponse<string> {
    return RestResponse.ResponseBuilder.ok(this.#text).tag(this.#tag()).lastModified(this.#lastModified).build();
  }
}
