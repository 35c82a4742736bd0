/** Serves a fetch handler on `@hono/node-server`, with timeouts and graceful shutdown. */
import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logging } from '../logging/logger';
import { answerableClasses } from './answerable-request';

const DEFAULT_DRAIN_LIMIT = 10 * 1024 * 1024;

const log = logging.getLogger('rxrest.server');

export interface ListenOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host: string;
  /** Milliseconds a whole request may take (0: no limit). */
  readonly requestTimeout: number;
  readonly headersTimeout: number;
  readonly keepAliveTimeout: number;
  /** Milliseconds in-flight requests get to finish on shutdown before connections are closed. */
  readonly shutdownTimeout: number;
  /** Close gracefully on SIGTERM and SIGINT (default true). */
  readonly handleSignals?: boolean;
  /** Most bytes of a body left unread (a limit tripped) still read so the connection stays alive; past it, the answer closes it. */
  readonly drainLimit?: number;
  /** Called once when shutdown starts (a signal, or `close()`), before the server stops accepting. */
  readonly onShutdown?: () => void;
}

/** A listening server. */
export interface RunningServer {
  readonly port: number;
  readonly host: string;
  /** `http://host:port`, with `localhost` for a wildcard host. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting connections, lets in-flight requests finish (up to the shutdown timeout), then closes. */
  close(): Promise<void>;
}

export function listen(fetch: (request: Request, env: unknown) => Response | Promise<Response>, options: ListenOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let node: ServerType;
    const onReady = (info: AddressInfo) => {
      const server = node as Server;
      server.requestTimeout = options.requestTimeout;
      server.headersTimeout = options.headersTimeout;
      server.keepAliveTimeout = options.keepAliveTimeout;
      let closing: Promise<void> | undefined;
      const close = () =>
        (closing ??= new Promise<void>((done) => {
          options.onShutdown?.();
          const timer = setTimeout(() => server.closeAllConnections(), options.shutdownTimeout);
          timer.unref();
          // Connections that finish their last answer during the wait (streams ended by the shutdown) are closed as they go idle.
          const idle = setInterval(() => server.closeIdleConnections(), 50);
          idle.unref();
          server.close(() => {
            clearTimeout(timer);
            clearInterval(idle);
            process.off('SIGTERM', onSignal);
            process.off('SIGINT', onSignal);
            done();
          });
          server.closeIdleConnections();
        }));
      const onSignal = (signal: NodeJS.Signals) => {
        log.info(`${signal} received: finishing in-flight requests, then stopping`);
        void close().then(() => log.info('Server stopped'));
      };
      if (options.handleSignals !== false) {
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
      }
      const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
      resolve({ port: info.port, host: options.host, url: `http://${host}:${info.port}`, server, close });
    };
    const serverOptions = answerableClasses(options.drainLimit ?? DEFAULT_DRAIN_LIMIT);
    node = serve({ fetch, port: options.port, hostname: options.host, serverOptions }, onReady);
    node.once('error', reject);
  });
}
