// A program run by spec/server/workers.spec.ts: an application that says which process answered, an endless
// SSE stream, and framework.http.workers from the environment. With FAIL_WORKERS set, every worker throws
// before it listens (the primary must fail its start rather than restart them for ever).
import cluster from 'node:cluster';
import { interval, map } from 'rxjs';
import { GET, Path, Produces, RestApplication, multi, type Multi } from '../../../lib';

@Path('who')
class WhoResource {
  @GET
  @Produces('text/plain')
  who(): string {
    return String(process.pid);
  }

  @GET
  @Path('ticks')
  @Produces('text/event-stream')
  ticks(): Multi<string> {
    return multi(interval(50).pipe(map(String)));
  }
}

async function main(): Promise<void> {
  if (cluster.isWorker && process.env.FAIL_WORKERS) throw new Error('this worker cannot start');
  const app = RestApplication.build({ classes: [WhoResource], overrides: { 'framework.rest.sse.keep-alive': '0' } });
  const server = await app.listen({ port: 0, host: '127.0.0.1' });
  if (server.role !== 'worker')
    process.stdout.write(`listening on ${server.url} as ${server.role} of ${server.workers}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
