/** `/legumes`: read-only in practice, because a name-bound filter answers every non-GET with 405. */
import { GET, NameBinding, Path, POST, Produces, RequestContext, RestResponse, ServerRequestFilter } from '../../lib';

export interface Legume {
  name: string;
  description: string;
}

/** Binds {@link ReadOnlyFilter} to the resources that carry it. */
export const ReadOnly = NameBinding('ReadOnly');

export class ReadOnlyFilter {
  @ServerRequestFilter()
  @ReadOnly
  rejectWrites(ctx: RequestContext): RestResponse<string> | undefined {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return undefined;
    return RestResponse.ResponseBuilder.status<string>(405)
      .allow('GET', 'HEAD')
      .entity(`${ctx.method} is not allowed on legumes`)
      .type('text/plain')
      .build();
  }
}

@Path('legumes')
@Produces('application/json')
@ReadOnly
export class LegumeResource {
  readonly #legumes: Legume[] = [
    { name: 'Carrot', description: 'Root vegetable, usually orange' },
    { name: 'Zucchini', description: 'Summer squash' },
  ];

  @GET
  list(): Legume[] {
    return this.#legumes;
  }

  /** Never reached: the filter answers first. */
  @POST
  add(legume: Legume): Legume[] {
    this.#legumes.push(legume);
    return this.#legumes;
  }
}

export const legumeSampleClasses: Function[] = [LegumeResource, ReadOnlyFilter];
