/**
 * Serves the application: a plain port, a TLS port (HTTP/2 with HTTP/1.1 for clients without it), or both, with
 * timeouts, certificate reload on SIGHUP and graceful shutdown; requests are answered from Node's own request and
 * response (`node-listener.ts`).
 */
import { isClusterWorker, nodeBuiltin } from '../runtime/node-builtins';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostRules } from '../http/allowed-hosts';
import { logging } from '../logging/logger';
import { http2Connections, httpConnections, redirectServer, type Connections, type NodeServer } from './connections';
import { IdleBodies } from './idle-bodies';
import { continueWithin, nodeListener, type ServeNode } from './node-listener';
import type { TlsSettings } from './tls-settings';
import { upgradeListener, webSocketUpgradesOnly } from './upgrade-listener';
import { checkingInterval, handshakeTimeoutOf, headersTimeoutOf } from './server-timeouts';
import { messageOf } from '../errors/message-of';

const nodeCluster = () => nodeBuiltin('node:cluster', 'worker processes (framework.http.workers)');
const nodeHttp = () => nodeBuiltin('node:http', 'the Node listener (listen())');
const nodeHttp2 = () => nodeBuiltin('node:http2', 'the Node listener (listen())');
const nodeHttps = () => nodeBuiltin('node:https', 'the Node listener (listen())');

const log = logging.getLogger('rxrest.server');

export interface ListenOptions {
  /** The plain port; 0 picks a free port. */
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
  readonly drainLimit: number;
  /** Called once when shutdown starts (a signal, or `close()`), before the server stops accepting. */
  readonly onShutdown?: () => void;
  /** Called once the server has closed, before `close()` resolves: release what the application holds. */
  readonly onClosed?: () => Promise<void>;
  /** Serve HTTPS (and HTTP/2) too, on its own port. */
  readonly tls?: TlsSettings;
  /** The plain port speaks cleartext HTTP/2 with prior knowledge (no HTTP/1.1 there). */
  readonly h2c?: boolean;
  /** The hosts served and the public origin (`framework.http.allowed-hosts`, `.public-base-url`); absent: any Host, as sent. */
  readonly hosts?: HostRules;
  /** `X-Content-Type-Options: nosniff` on the answers the servers write themselves (`framework.http.nosniff`). */
  readonly nosniff?: boolean;
  /** Milliseconds a request body may go without a byte before the request ends with 408 (0 or absent: no limit). */
  readonly bodyIdleTimeout?: number;
  /** SETTINGS_MAX_CONCURRENT_STREAMS of HTTP/2 sessions. */
  readonly maxConcurrentStreams: number;
}

/** A listening server. */
export interface RunningServer {
  /** The main port: the TLS one when TLS is on, else the plain one. */
  readonly port: number;
  readonly host: string;
  /** `http://host:port` or `https://host:port` for the main port, with `localhost` for a wildcard host. */
  readonly url: string;
  /** The main Node server; absent in the primary process of `framework.http.workers` above 1, which serves nothing itself. */
  readonly server: NodeServer | undefined;
  /** With TLS on, the plain port when it is open (`framework.http.insecure-requests` `enabled` or `redirect`). */
  readonly insecure?: { readonly port: number; readonly url: string };
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

/** What a cluster worker tells its primary once it serves. */
export interface WorkerListening {
  readonly rxrest: 'listening';
  readonly port: number;
  readonly url: string;
  readonly insecure: RunningServer['insecure'];
}

/** The URL of a port, with `localhost` for a wildcard host. */
export function urlOf(scheme: 'http' | 'https', host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${shown}:${port}`;
}

type Serving = { readonly server: NodeServer; readonly connections: Connections };
type Own = Parameters<typeof nodeListener>[2];
type Created = ReturnType<typeof createServers>;

/** Creates the configured servers, each listening already: the TLS one first when configured, the plain one unless TLS disables it. */
function createServers(serve: ServeNode, options: ListenOptions, own: Own, tlsPort: () => number) {
  const servers: Serving[] = [];
  const serving = (server: NodeServer, http2: boolean) => {
    servers.push({
      server,
      connections: http2 ? http2Connections(server, options.keepAliveTimeout) : httpConnections(server as Server),
    });
    const timed = server as Partial<Server>;
    if ('requestTimeout' in timed) timed.requestTimeout = options.requestTimeout;
    if ('headersTimeout' in timed) timed.headersTimeout = headersTimeoutOf(options);
    // The HTTP/2 TLS server has none of its own, but its HTTP/1.1 connections read it: without it they idled for good.
    if ('keepAliveTimeout' in timed || http2) timed.keepAliveTimeout = options.keepAliveTimeout;
    server.on('checkContinue', continueWithin(own.drainLimit, server));
    return server;
  };
  const { tls } = options;
  let tlsServer: NodeServer | undefined;
  if (tls) tlsServer = serving(secureServer(serve, options, own, tls).listen(tls.port, options.host), tls.http2);
  let plainServer: NodeServer | undefined;
  if (!tls || tls.insecureRequests === 'enabled') {
    const listener = nodeListener(serve, 'http', own);
    // Only a WebSocket handshake leaves HTTP/1.1 for the 'upgrade' listener; any other Upgrade is served as a request.
    const IncomingMessage = webSocketUpgradesOnly();
    plainServer = options.h2c
      ? nodeHttp2().createServer({ settings: http2SettingsOf(options) }, listener)
      : nodeHttp().createServer({ connectionsCheckingInterval: checkingInterval(options), IncomingMessage }, listener);
    if (!options.h2c) plainServer.on('upgrade', upgradeListener(listener));
    serving(plainServer.listen(options.port, options.host), options.h2c === true);
  } else if (tls.insecureRequests === 'redirect') {
    const redirecting = redirectServer(tlsPort, own.hosts, own.nosniff, checkingInterval(options));
    plainServer = serving(redirecting.listen(options.port, options.host), false);
  }
  return { servers, tlsServer, plainServer };
}

/** Every HTTP/2 session is told how many streams it may open at once; nghttp2 refuses those past it. */
function http2SettingsOf(options: ListenOptions) {
  return { maxConcurrentStreams: options.maxConcurrentStreams };
}

/** The TLS server (HTTP/2 with HTTP/1.1 beside it, or HTTPS) with its WebSocket upgrades, not listening yet. */
function secureServer(serve: ServeNode, options: ListenOptions, own: Own, tls: NonNullable<ListenOptions['tls']>) {
  // A handshake is part of receiving the first request's headers: it gets their timeout (Node's is 120 s).
  const secure = { ...tls.credentials(), handshakeTimeout: handshakeTimeoutOf(options) };
  const listener = nodeListener(serve, 'https', own);
  // Only a WebSocket handshake leaves HTTP/1.1 for the 'upgrade' listener; any other Upgrade is served as a request.
  const IncomingMessage = webSocketUpgradesOnly();
  const settings = http2SettingsOf(options);
  const server: NodeServer = tls.http2
    ? nodeHttp2().createSecureServer(
        { ...secure, allowHTTP1: true, settings, Http1IncomingMessage: IncomingMessage },
        listener,
      )
    : nodeHttps().createServer(
        { ...secure, connectionsCheckingInterval: checkingInterval(options), IncomingMessage },
        listener,
      );
  // WebSocket handshakes are HTTP/1.1 upgrades, also on the HTTP/2 port (a client without h2 there).
  server.on('upgrade', upgradeListener(listener));
  return server;
}

/** The port of each server once it listens; when one fails, every server is closed and its error thrown. */
async function listeningPorts(servers: readonly Serving[]): Promise<number[]> {
  return Promise.all(
    servers.map(({ server }) =>
      server.listening
        ? Promise.resolve((server.address() as AddressInfo).port)
        : new Promise<number>((resolve, reject) => {
            server.once('error', reject);
            server.once('listening', () => resolve((server.address() as AddressInfo).port));
          }),
    ),
  ).catch(async (error: unknown) => {
    await Promise.all(
      servers.map(({ server }) => new Promise((done) => (server.listening ? server.close(done) : done(undefined)))),
    );
    throw error;
  });
}

/**
 * Stops accepting, lets in-flight requests finish up to the shutdown timeout, then closes every connection;
 * `release` lets go of what the servers held, before the application is released.
 */
function closeServers(servers: readonly Serving[], options: ListenOptions, release: () => void): Promise<void> {
  options.onShutdown?.();
  const timer = setTimeout(() => servers.forEach(({ connections }) => connections.closeAll()), options.shutdownTimeout);
  timer.unref();
  // Connections that finish their last answer during the wait (streams ended by the shutdown) are closed as they go idle.
  const idle = setInterval(() => servers.forEach(({ connections }) => connections.closeIdle()), 50);
  idle.unref();
  const closed = servers.map(
    ({ server, connections }) =>
      new Promise<void>((done) => {
        server.close(() => done());
        connections.closeIdle();
      }),
  );
  return Promise.all(closed).then(() => {
    clearTimeout(timer);
    clearInterval(idle);
    release();
    return (options.onClosed?.() ?? Promise.resolve())
      .catch((error: unknown) => log.error(`Releasing the application failed: ${messageOf(error)}`))
      .then(() => {
        // A cluster worker's channel to the primary would keep it alive: let go of it so the worker exits.
        if (isClusterWorker()) nodeCluster().worker?.disconnect();
      });
  });
}

/** New certificates without dropping a connection: the next handshakes use them, open connections keep theirs. */
function certificateReload(tls: TlsSettings | undefined, tlsServer: NodeServer | undefined): () => void {
  return () => {
    if (!tls || !tlsServer) return log.info('SIGHUP received: nothing to reload (no TLS certificate)');
    try {
      (tlsServer as { setSecureContext(options: object): void }).setSecureContext(tls.credentials());
      log.info('SIGHUP received: TLS certificate reloaded');
    } catch (error) {
      log.error(`SIGHUP received, but the certificate was not reloaded (the previous one stays): ${messageOf(error)}`);
    }
  };
}

/** Starts the configured servers. */
export async function listen(serve: ServeNode, options: ListenOptions): Promise<RunningServer> {
  const idleBodies = options.bodyIdleTimeout ? new IdleBodies(options.bodyIdleTimeout) : undefined;
  const own = {
    drainLimit: options.drainLimit,
    hosts: options.hosts,
    nosniff: options.nosniff ?? true,
    idleBodies,
  };
  let tlsPort = 0;
  const created = createServers(serve, options, own, () => tlsPort);
  const { servers, tlsServer } = created;
  const ports = await listeningPorts(servers);
  if (tlsServer) tlsPort = ports[0]!;
  const reload = certificateReload(options.tls, tlsServer);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= closeServers(servers, options, () => {
      idleBodies?.close();
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      process.off('SIGHUP', reload);
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
    const subscribe = isClusterWorker() ? 'on' : 'once';
    process[subscribe]('SIGTERM', onSignal);
    process[subscribe]('SIGINT', onSignal);
    // A SIGHUP (`systemctl reload`, a closed terminal) never ends the server: it reloads what it can.
    process.on('SIGHUP', reload);
  }
  return running(options.host, ports, created, close);
}

/** What `listen` gives: the main port (the TLS one when TLS is on) and the plain one beside it. */
function running(host: string, ports: readonly number[], created: Created, close: () => Promise<void>): RunningServer {
  const { tlsServer, plainServer } = created;
  const plainPort = plainServer ? (ports[tlsServer ? 1 : 0] ?? (plainServer.address() as AddressInfo).port) : undefined;
  const main = tlsServer
    ? { port: ports[0]!, url: urlOf('https', host, ports[0]!), server: tlsServer }
    : { port: plainPort!, url: urlOf('http', host, plainPort!), server: plainServer! };
  const insecure =
    tlsServer && plainPort !== undefined ? { port: plainPort, url: urlOf('http', host, plainPort) } : undefined;
  // A worker tells its primary where it serves (the primary cannot tell a TLS port from a plain one).
  if (isClusterWorker())
    process.send?.({ rxrest: 'listening', port: main.port, url: main.url, insecure } satisfies WorkerListening);
  const role = isClusterWorker() ? 'worker' : 'single';
  return { ...main, host, insecure, role, workers: 1, close };
}
