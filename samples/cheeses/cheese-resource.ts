/** `/cheeses`: every parameter kind, the same through `@BeanParam`, and a class-local exception mapper. */
import {
  APIResponse,
  BeanParam,
  Consumes,
  GET,
  Path,
  POST,
  Produces,
  RestCookie,
  RestForm,
  RestHeader,
  RestMatrix,
  RestPath,
  RestQuery,
  RestResponse,
  ServerExceptionMapper,
} from '../../lib';
import { CheeseParams } from './cheese-params';

export class UnknownCheeseException extends Error {
  constructor(readonly cheese: string) {
    super(`Unknown cheese: ${cheese}`);
    this.name = 'UnknownCheeseException';
  }
}

const known = new Set(['morbier', 'brie', 'comte', 'tomme']);

@Path('cheeses')
export class CheeseResource {
  /** `POST /cheeses;variant=goat/tomme?age=matured` + cookie, header and form → `tomme/goat/matured/hardcore/fist-bump/strong`. */
  @POST
  @Path('{type}')
  @Consumes('application/x-www-form-urlencoded')
  @Produces('text/plain')
  allParams(
    @RestPath() type: string,
    @RestMatrix() variant: string,
    @RestQuery() age: string,
    @RestCookie() level: string,
    @RestHeader('X-Cheese-Secret-Handshake') secretHandshake: string,
    @RestForm() smell: string,
  ): string {
    return `${type}/${variant}/${age}/${level}/${secretHandshake}/${smell}`;
  }

  /** The same six values through a bean parameter. */
  @POST
  @Path('bean/{type}')
  @Consumes('application/x-www-form-urlencoded')
  @Produces('text/plain')
  beanParams(@BeanParam() params: CheeseParams): string {
    return params.describe();
  }

  @GET
  @Path('{name}')
  @Produces('text/plain')
  get(name: string): string {
    if (!known.has(name)) throw new UnknownCheeseException(name);
    return `Cheese: ${name}`;
  }

  /** Local to this class: other resources' errors are not mapped here. */
  @ServerExceptionMapper()
  @APIResponse({ status: 404, description: 'Unknown cheese', mediaType: 'text/plain' })
  unknownCheese(error: UnknownCheeseException): RestResponse<string> {
    return RestResponse.ResponseBuilder.status<string>(404)
      .entity(`Unknown cheese: ${error.cheese}`)
      .type('text/plain')
      .build();
  }
}

export const cheeseSampleClasses: Function[] = [CheeseResource];
