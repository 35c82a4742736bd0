/** The bench routes as decorated rxrest resources, built and served the way an application would be. */
import { Body, Consumes, GET, Path, POST, Produces, RestApplication, RestPath, RestQuery, Separator, resolveConfig } from '../../../lib';
import { HELLO, READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

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
