/**
 * `npm run start:deno`: the samples application on Deno's own server (`Deno.serve`), on PORT (default 8080). Runs
 * from the compiled JavaScript (Deno's TypeScript emits no decorator metadata).
 */
import { buildRuntimeSamples } from './runtime-samples';

/** The part of Deno's API this file uses (the project does not depend on Deno's types). */
declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(address: { hostname: string; port: number }): void },
    handler: (request: Request, info: unknown) => Response | Promise<Response>,
  ): unknown;
};

const app = buildRuntimeSamples('deno', {
  directory: `${__dirname.replace(/[\\/]dist[\\/]samples[\\/]runtimes$/, '/samples/runtimes')}/..`,
});
// The connection's info (fetch's second argument) reaches rxrest: the client address from remoteAddr.
Deno.serve(
  {
    port: Number(process.env.PORT ?? 8080),
    hostname: process.env.HOST ?? '0.0.0.0',
    onListen: ({ hostname, port }) =>
      process.stdout.write(`rxrest samples listening on http://${hostname}:${port} (Deno)\n`),
  },
  app.fetch,
);
