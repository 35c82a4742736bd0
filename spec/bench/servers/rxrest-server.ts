/** The bench routes as decorated rxrest resources, built and served the way an application would be. */
import { RestApplication, resolveConfig } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { BenchResource } from './bench-resource';
import { followParent } from './server-control';

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
