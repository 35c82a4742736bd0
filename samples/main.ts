/** `npm start`: serves the samples application on PORT (default 8080) and HOST (default 0.0.0.0). */
import { buildSamples } from './app';

async function main(): Promise<void> {
  const app = buildSamples();
  const server = await app.listen({ port: Number(process.env.PORT ?? 8080), host: process.env.HOST ?? '0.0.0.0' });
  process.stdout.write(`rxrest samples listening on ${server.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
