/** The bench routes as decorated rxrest resources, built and served the way an application would be. */
import { Body, GET, Path, POST, Produces, Consumes, RestApplication, RestPath, RestQuery, resolveConfig } from '../../../lib';
import { FRUITS, READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

@Path('bench')
@Produces('application/json')
export class BenchResource {
  @GET
  @Path('fruits')
  fruits(): readonly { name: string; description: string }[] {
    return FRUITS;
  }

  @GET
  @Path('items/{id}')
  item(@RestPath() id: number, @RestQuery() limit: number): { id: number; limit: number } {
    return { id, limit };
  }

  @POST
  @Path('echo')
  @Consumes('application/json')
  echo(@Body() body: Record<string, unknown>): Record<string, unknown> {
    return body;
  }
}

async function main(): Promise<void> {
  // BENCH_WORKERS: framework.http.workers, for the workers benchmark (the primary speaks for its workers).
  const config = resolveConfig({ overrides: { 'framework.http.workers': process.env.BENCH_WORKERS ?? '1' } });
  const app = RestApplication.build({ classes: [BenchResource], config });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  if (server.role === 'worker') return;
  process.stdout.write(`${READY_PREFIX}${server.port}\n`);
  followParent(() => void server.close());
}

void main();
