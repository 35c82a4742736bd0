/** Serves a fetch handler on `@hono/node-server`, with timeouts and graceful shutdown. */
import { serve, type ServerType } from '@hono/node-server';
import cluster from 'node:cluster';
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
  /** Called once the server has closed, before `close()` resolves: release what the application holds. */
  readonly onClosed?: () => Promise<void>;
}

/** A listening server. */
export interface RunningServer {
  readonly port: number;
  readonly host: string;
  /** `http://host:port`, with `localhost` for a wildcard host. */
  readonly url: string;
  /** The Node server; absent in the primary process of `framework.http.workers` above 1, which serves nothing itself. */
  readonly server: Server | undefined;
  /** `single`: this process serves; `primary`: it supervises `workers` cluster workers; `worker`: it is one of them. */
  readonly role: 'single' | 'primary' | 'worker';
  /** The processes this stands for: the worker count in a primary, else 1. */
  readonly workers: number;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to the shutdown timeout), then closes;
   * in the primary of a cluster, does that in every worker and waits for them to exit.
   */
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
            void (options.onClosed?.() ?? Promise.resolve())
              .catch((error: unknown) => log.error(`Releasing the application failed: ${error instanceof Error ? error.message : String(error)}`))
              .then(() => {
                // A cluster worker's channel to the primary would keep it alive: let go of it so the worker exits.
                if (cluster.isWorker) cluster.worker?.disconnect();
                done();
              });
          });
          server.closeIdleConnections();
        }));
      const onSignal = (signal: NodeJS.Signals) => {
        if (closing) return;
        log.info(`${signal} received: finishing in-flight requests, then stopping`);
        void close().then(() => log.info('Server stopped'));
      };
      if (options.handleSignals !== false) {
        // A second signal ends a single process at once (the default action, once the handler is gone). A worker
        // keeps its handlers: besides the SIGTERM its primary forwards, it may get the terminal's SIGINT or a
        // service manager's SIGTERM sent to the whole group, and it still drains.
        const subscribe = cluster.isWorker ? 'on' : 'once';
        process[subscribe]('SIGTERM', onSignal);
        process[subscribe]('SIGINT', onSignal);
      }
      const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
      const role = cluster.isWorker ? 'worker' : 'single';
      resolve({ port: info.port, host: options.host, url: `http://${host}:${info.port}`, server, role, workers: 1, close });
    };
    const serverOptions = answerableClasses(options.drainLimit ?? DEFAULT_DRAIN_LIMIT);
    node = serve({ fetch, port: options.port, hostname: options.host, serverOptions }, onReady);
    node.once('error', reject);
  });
}
