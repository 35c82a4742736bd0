/** `npm run start:bun`: the samples application on Bun's own server (`Bun.serve`), on PORT (default 8080). */
import { bunWebSocket } from '../../lib';
import { buildRuntimeSamples } from './runtime-samples';

/** The part of Bun's API this file uses (the project does not depend on Bun's types). */
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout?: number;
    fetch(request: Request, server: unknown): Response | Promise<Response>;
    websocket: typeof bunWebSocket;
  }): { url: URL };
};

const app = buildRuntimeSamples('bun', {
  directory: `${__dirname.replace(/[\\/]dist[\\/]samples[\\/]runtimes$/, '/samples/runtimes')}/..`,
});
// The server (fetch's second argument) reaches rxrest: the client address from requestIP, streams exempt from the idle timeout.
const server = Bun.serve({
  port: Number(process.env.PORT ?? 8080),
  hostname: process.env.HOST ?? '0.0.0.0',
  fetch: app.fetch,
  // Bun hands an upgraded socket's events to these handlers: rxrest's, for the samples' WebSocket endpoints.
  websocket: bunWebSocket,
});
process.stdout.write(`rxrest samples listening on ${server.url.href.replace(/\/$/, '')} (Bun)\n`);
