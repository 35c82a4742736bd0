import {
  GET,
  HttpHeaders,
  NotFoundException,
  Path,
  RequestContext,
  ResourceInfo,
  RestRequest,
  RestResponse,
  ServerExceptionMapper,
  UriInfo,
} from '../../lib';
import { buildApp, call } from '../support/app';

class OutOfStock extends Error {}

/** A global mapper (not a resource) taking context objects after the exception. */
class ContextMappers {
  @ServerExceptionMapper()
  outOfStock(error: OutOfStock, uri: UriInfo, headers: HttpHeaders, request: RestRequest, ctx: RequestContext) {
    return RestResponse.status(
      409,
      [
        error.message,
        uri.path,
        uri.queryParameters.get('q'),
        headers.headerString('x-tenant'),
        request.method,
        ctx.method,
      ].join('|'),
    );
  }

  @ServerExceptionMapper()
  notFound(error: NotFoundException, uri: UriInfo) {
    return RestResponse.status(404, `nothing at ${uri.path}`);
  }
}

@Path('stock')
class Stock {
  @GET @Path('{item}') get(item: string): string {
    throw new OutOfStock(item);
  }
  @GET @Path('local/{item}') local(item: string): string {
    throw new RangeError(item);
  }
  @ServerExceptionMapper()
  range(error: RangeError, info: ResourceInfo, uri: UriInfo) {
    return RestResponse.status(
      416,
      `${info.resourceClass?.name}#${info.resourceMethod} ${error.message} ${uri.pathParameters.item}`,
    );
  }
}

const app = buildApp([ContextMappers, Stock]);

describe('compileMappers', () => {
  it('injects UriInfo, HttpHeaders, RestRequest and the request context into a global mapper', async () => {
    const response = await call(app, '/stock/kiwi?q=1', { headers: { 'x-tenant': 'acme' } });
    expect([response.status, await response.text()]).toEqual([409, 'kiwi|/stock/kiwi|1|acme|GET|GET']);
  });

  it('injects ResourceInfo and path parameters into a class-local mapper', async () => {
    const response = await call(app, '/stock/local/fig');
    expect([response.status, await response.text()]).toEqual([416, 'Stock#local fig fig']);
  });

  it('injects context objects into a global mapper of the routing 404', async () => {
    const response = await call(app, '/nowhere/at/all');
    expect([response.status, await response.text()]).toEqual([404, 'nothing at /nowhere/at/all']);
  });
});
