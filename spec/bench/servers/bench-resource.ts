/** The bench routes as decorated rxrest resources, written the way an application would write them. */
import { Body, Consumes, GET, Path, POST, Produces, RestPath, RestQuery, Separator } from '../../../lib';
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
  user(@RestPath() id: number, @RestQuery({ type: [String] }) @Separator(',') fields: string[]): { id: number; fields: string[] } {
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
