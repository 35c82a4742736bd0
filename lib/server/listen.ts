/** Serves the application on a plain port, a TLS port, or both, until a graceful shutdown. */
import { isClusterWorker } from '../runtime/node-builtins';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostRules } from '../http/allowed-hosts';
import { logging } from '../logging/logger';
import { http2Connections, httpConnections, redirectServer, type Connections, type NodeServer } from './connections';
import { IdleBodies } from './idle-bodies';
import { continueWithin, nodeListener, type ListenerOptions, type ServeNode } from './node-listener';
import type { TlsSettings } from './tls-settings';
import { upgradeListener, webSocketUpgradesOnly } from './upgrade-listener';
import { checkingInterval, handshakeTimeoutOf, headersTimeoutOf } from './server-timeouts';
import { messageOf } from '../errors/message-of';
import { nodeCluster, nodeHttp, nodeHttp2, nodeHttps } from './node-http';

const log = logging.getLogger('rxrest.server');

/** Times in milliseconds, 0 for none. */
export interface ListenOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host: string;
  readonly requestTimeout: number;
  readonly headersTimeout: number;
  readonly keepAliveTimeout: number;
  /** What in-flight requests get to finish on shutdown before connections are closed. */
  readonly shutdownTimeout: number;
  /** On SIGTERM and SIGINT (default true). */
  readonly handleSignals?: boolean;
  /** Most bytes of a body left unread still read so the connection stays alive; past it, the answer closes it. */
  readonly drainLimit: number;
  /** When shutdown starts, before the server stops accepting. */
  readonly onShutdown?: () => void;
  /** Once the server has closed, before `close()` resolves: release what the application holds. */
  readonly onClosed?: () => Promise<void>;
  readonly tls?: TlsSettings;
  /** Cleartext HTTP/2 with prior knowledge on the plain port (no HTTP/1.1 there). */
  readonly h2c?: boolean;
  readonly hosts?: HostRules;
  /** On the answers the servers write themselves. */
  readonly nosniff?: boolean;
  /** Without a byte of the body for that long, the request ends with 408. */
  readonly bodyIdleTimeout?: number;
  readonly maxConcurrentStreams: number;
}

/** A listening server. */
export interface RunningServer {
  /** The main port: the TLS one when TLS is on, else the plain one. */
  readonly port: number;
  readonly host: string;
  /** `http://host:port` or `https://host:port` for the main port, with `localhost` for a wildcard host. */
  readonly url: string;
  /** Absent in the primary of `framework.http.workers` above 1, which serves nothing itself. */
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

/** A cluster worker tells its primary where it serves: the primary cannot tell a TLS port from a plain one. */
export interface WorkerListening {
  readonly rxrest: 'listening';
  readonly port: number;
  readonly url: string;
  readonly insecure: RunningServer['insecure'];
}

export function urlOf(scheme: 'http' | 'https', host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${shown}:${port}`;
}

type Serving = { readonly server: NodeServer; readonly connections: Connections };
type Created = ReturnType<typeof createServers>;

/** Each listening already: the TLS one first when configured, the plain one unless TLS disables it. */
function createServers(serve: ServeNode, options: ListenOptions, own: ListenerOptions, tlsPort: () => number) {
  const servers: Serving[] = [];
  const serving = (server: NodeServer, http2: boolean) => {
    const connections = http2 ? http2Connections(server, options.keepAliveTimeout) : httpConnections(server as Server);
    servers.push({ server, connections });
    const timed = server as Partial<Server>;
    if ('requestTimeout' in timed) timed.requestTimeout = options.requestTimeout;
    if ('headersTimeout' in timed) timed.headersTimeout = headersTimeoutOf(options);
    // Read once listening. Node's HTTP/2 TLS server takes no option for it: its HTTP/1.1 connections' timeouts were
    // checked every 30 s whatever they were.
    if ('connectionsCheckingInterval' in timed) timed.connectionsCheckingInterval = checkingInterval(options);
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
    const IncomingMessage = webSocketUpgradesOnly();
    plainServer = options.h2c
      ? nodeHttp2().createServer({ settings: { maxConcurrentStreams: options.maxConcurrentStreams } }, listener)
      : nodeHttp().createServer({ IncomingMessage }, listener);
    if (!options.h2c) plainServer.on('upgrade', upgradeListener(listener));
    serving(plainServer.listen(options.port, options.host), options.h2c === true);
  } else if (tls.insecureRequests === 'redirect') {
    const redirecting = redirectServer(tlsPort, own.hosts, own.nosniff);
    plainServer = serving(redirecting.listen(options.port, options.host), false);
  }
  return { servers, tlsServer, plainServer };
}

/** Not listening yet. */
function secureServer(serve: ServeNode, options: ListenOptions, own: ListenerOptions, tls: TlsSettings) {
  // A handshake is part of receiving the first request's headers: it gets their timeout (Node's is 120 s).
  const secure = { ...tls.credentials(), handshakeTimeout: handshakeTimeoutOf(options) };
  const listener = nodeListener(serve, 'https', own);
  const IncomingMessage = webSocketUpgradesOnly();
  const settings = { maxConcurrentStreams: options.maxConcurrentStreams };
  const server: NodeServer = tls.http2
    ? nodeHttp2().createSecureServer(
        { ...secure, allowHTTP1: true, settings, Http1IncomingMessage: IncomingMessage },
        listener,
      )
    : nodeHttps().createServer({ ...secure, IncomingMessage }, listener);
  // WebSocket handshakes are HTTP/1.1 upgrades, also on the HTTP/2 port (a client without h2 there).
  server.on('upgrade', upgradeListener(listener));
  return server;
}

/** When one fails to listen, every server is closed and its error thrown. */
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

/** `release` lets go of what the servers held, before the application is released. */
function closeServers(servers: readonly Serving[], options: ListenOptions, release: () => void): Promise<void> {
  options.onShutdown?.();
  const timer = setTimeout(() => servers.forEach(({ connections }) => connections.closeAll()), options.shutdownTimeout);
  timer.unref();
  // Connections that finish their last answer during the wait (streams ended by shutdown) close as they go idle.
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

/** The next handshakes use the new certificates; open connections keep theirs. */
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

export async function listen(serve: ServeNode, options: ListenOptions): Promise<RunningServer> {
  // Node bounds a whole HTTP/1.1 request by `requestTimeout`, and an HTTP/2 one by nothing.
  const http2Timeout = options.tls?.http2 || options.h2c ? options.requestTimeout : 0;
  const bodyIdle = options.bodyIdleTimeout ?? 0;
  const idleBodies = bodyIdle || http2Timeout ? new IdleBodies(bodyIdle, http2Timeout) : undefined;
  const own = { drainLimit: options.drainLimit, hosts: options.hosts, nosniff: options.nosniff ?? true, idleBodies };
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
    // A second signal ends a single process at once. A worker keeps its handlers: beside the SIGTERM its primary
    // forwards, the terminal's SIGINT or a service manager's SIGTERM may reach the whole group, and it still drains.
    const subscribe = isClusterWorker() ? 'on' : 'once';
    process[subscribe]('SIGTERM', onSignal);
    process[subscribe]('SIGINT', onSignal);
    // A SIGHUP (`systemctl reload`, a closed terminal) never ends the server: it reloads what it can.
    process.on('SIGHUP', reload);
  }
  return running(options.host, ports, created, close);
}

function running(host: string, ports: readonly number[], created: Created, close: () => Promise<void>): RunningServer {
  const { tlsServer, plainServer } = created;
  const plainPort = plainServer ? (ports[tlsServer ? 1 : 0] ?? (plainServer.address() as AddressInfo).port) : undefined;
  const main = tlsServer
    ? { port: ports[0]!, url: urlOf('https', host, ports[0]!), server: tlsServer }
    : { port: plainPort!, url: urlOf('http', host, plainPort!), server: plainServer! };
  const insecure =
    tlsServer && plainPort !== undefined ? { port: plainPort, url: urlOf('http', host, plainPort) } : undefined;
  if (isClusterWorker())
    process.send?.({ rxrest: 'listening', port: main.port, url: main.url, insecure } satisfies WorkerListening);
  return { ...main, host, insecure, role: isClusterWorker() ? 'worker' : 'single', workers: 1, close };
}
