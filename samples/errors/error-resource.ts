/** `/errors`: how exceptions become responses — built-in, unhandled, globally mapped and unwrapped. */
import {
  APIResponse,
  BadRequestException,
  GET,
  Path,
  RestResponse,
  ServerExceptionMapper,
  UnwrapException,
} from '../../lib';

export class OutOfStockException extends Error {
  constructor(readonly product: string) {
    super(`${product} are out of stock`);
    this.name = 'OutOfStockException';
  }
}

/** A wrapper whose cause is mapped instead of itself. */
@UnwrapException()
export class SupplyChainException extends Error {
  constructor(cause: unknown) {
    super('The supply chain failed', { cause });
    this.name = 'SupplyChainException';
  }
}

/** Global mappers: this class is not a resource, so its mappers apply everywhere. */
export class StockMappers {
  @ServerExceptionMapper()
  @APIResponse({ status: 409, description: 'Out of stock', mediaType: 'text/plain' })
  outOfStock(error: OutOfStockException): RestResponse<string> {
    return RestResponse.ResponseBuilder.status<string>(409)
      .entity(`Out of stock: ${error.product}`)
      .type('text/plain')
      .build();
  }
}

@Path('errors')
export class ErrorResource {
  @GET
  @Path('bad-request')
  badRequest(): string {
    throw new BadRequestException('Nope');
  }

  @GET
  @Path('unhandled')
  unhandled(): string {
    throw new Error('secret detail');
  }

  @GET
  @Path('out-of-stock')
  outOfStock(): string {
    throw new OutOfStockException('bananas');
  }

  @GET
  @Path('wrapped')
  wrapped(): string {
    throw new SupplyChainException(new OutOfStockException('kiwis'));
  }
}

export const errorSampleClasses: Function[] = [ErrorResource, StockMappers];
