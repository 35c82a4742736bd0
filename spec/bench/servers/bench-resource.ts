/** The bench routes as decorated rxrest resources, written the way an application would write them. */
import { Authenticated, Body, Consumes, GET, Path, POST, Produces, RestPath, RestQuery, Separator } from '../../../lib';
import { HELLO } from '../bench-routes';

@Path('/')
export class BenchResource {
  @GET
  @Path('hello')
  @Produces('text/plain')
  hello(): string {
    return HELLO;
  }

  @GET
  @Path('users/{id}')
  @Produces('application/json')
  user(
    @RestPath() id: number,
    @RestQuery({ type: [String] }) @Separator(',') fields: string[],
  ): { id: number; fields: string[] } {
    return { id, fields };
  }

  @POST
  @Path('echo')
  @Consumes('application/json')
  @Produces('application/json')
  echo(@Body() body: Record<string, unknown>): Record<string, unknown> {
    return body;
  }
}

/** `/hello` behind a bearer JWT, for the cost of authentication (served when the bench gives a key). */
@Path('/secure')
export class SecureBenchResource {
  @GET
  @Path('hello')
  @Produces('text/plain')
  @Authenticated
  hello(): string {
    return HELLO;
  }
}
