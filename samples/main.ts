/** `npm start`: serves the samples application on PORT (default 8080) and HOST (default 0.0.0.0). */
import { buildSamples } from './app';
import { startTracing } from './tracing';

async function main(): Promise<void> {
  const flushSpans = startTracing();
  // Spans still batched go out before the process ends (the server drains on the same signals).
  if (flushSpans) for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void flushSpans());
  const app = buildSamples();
  const server = await app.listen({ port: Number(process.env.PORT ?? 8080), host: process.env.HOST ?? '0.0.0.0' });
  // With framework.http.workers above 1 every worker runs this too: the primary speaks for them all.
  if (server.role !== 'worker')
    process.stdout.write(
      `rxrest samples listening on ${server.url}${server.workers > 1 ? ` (${server.workers} workers)` : ''}\n`,
    );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
