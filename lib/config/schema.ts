// The one schema of every `framework.*` setting: its type, default and description.
import {
  boolean,
  duration,
  hostList,
  integer,
  list,
  listOf,
  logLevel,
  oneOf,
  origin,
  processCount,
  readSetting,
  setting,
  size,
  sizeWithin,
  text,
  type RawValue,
  type SettingValue,
} from './setting-types';

/** The smallest stream budget: one batch of output (stream writers join items into 16 KB writes). */
export const MIN_STREAM_BUDGET = 16384;

/** Said to a user whose stream budget is too small, most likely an item count from before budgets were bytes. */
export const STREAM_BUDGET_MEANING = 'a byte budget such as 64M, no longer a count of items';

/** busboy refuses a multipart part whose header block is larger, as malformed, whatever it is told. */
const MAX_PART_HEADER_SIZE = 16384;
const PART_HEADER_MEANING = 'the multipart parser reads no larger header block of a part';

/** What a stream past its byte budget does with one more item. */
export const OVERFLOW_POLICIES = ['fail', 'drop-oldest', 'drop-newest', 'latest'] as const;

/** The response content codings the framework can apply, in the default order of preference. */
export const COMPRESSORS = ['br', 'gzip', 'deflate'] as const;

/**
 * Every `framework.*` key. Values arrive as text (file, environment) or as program overrides, and come
 * out typed: sizes in bytes, durations in milliseconds, lists as arrays. `framework.log.category."<name>".level`
 * keys form an open family handled beside this schema (see `log-category-key.ts`). A table of our own readers,
 * not a zod schema: zod is a megabyte of code every process would load just for this.
 *
 * @example
 * readFrameworkSettings({ 'framework.http.port': '9000' }).values['framework.http.port']; // 9000
 */
export const frameworkSettings = {
  'framework.profile': setting(text, {
    default: 'prod',
    description: 'Active profile; `%<profile>.` keys apply only in it. Also set by FRAMEWORK_PROFILE.',
  }),
  'framework.rest.path': setting(text, {
    default: '/',
    description: 'Root path of every endpoint, like @ApplicationPath. Read at build().',
  }),
  'framework.rest.fail-on-duplicate': setting(boolean, {
    default: 'true',
    description: 'Fail the build on duplicate endpoints; when false, log a warning instead.',
  }),
  'framework.rest.worker.max-concurrency': setting(integer(1), {
    default: '64',
    description: 'Worker-lane methods allowed to run at once.',
  }),
  'framework.rest.blocked-warning-ms': setting(integer(0), {
    default: '200',
    description: 'Log a warning naming a method that blocks the event loop longer than this (ms); 0 disables.',
  }),
  'framework.rest.sse.keep-alive': setting(duration, {
    default: '15s',
    description: 'Interval of SSE keep-alive comments; 0 disables.',
  }),
  'framework.rest.stream.buffer-size': setting(sizeWithin(MIN_STREAM_BUDGET, Infinity, STREAM_BUDGET_MEANING), {
    default: '64M',
    description:
      'Byte budget of framed output an Observable result may get ahead of its client (counting what the socket holds); past it the overflow policy applies. Pulled sources never need it.',
  }),
  'framework.rest.stream.overflow': setting(oneOf(OVERFLOW_POLICIES), {
    default: 'fail',
    description: 'What a stream past its byte budget does: fail, drop-oldest, drop-newest or latest (item by item).',
  }),
  'framework.rest.stream.total-buffer-size': setting(sizeWithin(MIN_STREAM_BUDGET, Infinity, STREAM_BUDGET_MEANING), {
    default: '128M',
    description:
      'Byte budget of all outgoing streams and WebSocket messages of the application together (counted as buffer-size is); past it, a stream holding more than its share (256K, or half the budget divided among the open streams) is treated as past its own budget.',
  }),
  'framework.runtime.workerd.stream-stall-timeout': setting(duration, {
    default: '10s',
    description:
      'On Cloudflare Workers without the enable_request_signal flag: a stream whose client takes nothing this long after a chunk was handed over is taken for gone and ended; 0 disables.',
  }),
  'framework.runtime.workerd.stream-max-duration': setting(duration, {
    default: '1h',
    description:
      'On Cloudflare Workers without the enable_request_signal flag: a stream ends (cleanly) after this long, its client reconnecting if it wants more; 0 disables.',
  }),
  'framework.openapi.enabled': setting(boolean, {
    default: 'true',
    description: 'Serve the OpenAPI 3.2 document of the application at framework.openapi.path.',
  }),
  'framework.openapi.path': setting(text, {
    default: '/q/openapi',
    description: 'Path of the OpenAPI document: YAML, or JSON for Accept: application/json or ?format=json.',
  }),
  'framework.openapi.info.title': setting(text, {
    optional: true,
    description:
      "The document's title; when absent, the name in the application's package.json (the nearest from build({ directory }), else the working directory, up).",
  }),
  'framework.openapi.info.version': setting(text, {
    optional: true,
    description:
      "The document's version; when absent, the version in the application's package.json (found as for the title).",
  }),
  'framework.openapi.info.description': setting(text, {
    optional: true,
    description: "The document's description.",
  }),
  'framework.openapi.ui.path': setting(text, {
    default: '/q/swagger-ui',
    description: 'Path of the Swagger UI page for the document (assets from swagger-ui-dist, no CDN).',
  }),
  'framework.openapi.ui.always-include': setting(boolean, {
    default: 'false',
    description: 'Serve Swagger UI in every profile; without it only in the dev and test profiles.',
  }),
  'framework.health.enabled': setting(boolean, {
    default: 'true',
    description: 'Answer health checks at framework.health.path (and /live, /ready, /started below it).',
  }),
  'framework.health.path': setting(text, {
    default: '/q/health',
    description: "Path of the health checks, in MicroProfile Health's JSON shape.",
  }),
  'framework.health.timeout': setting(duration, {
    default: '10s',
    description: 'Time one health check may take before it counts as DOWN.',
  }),
  'framework.management.roles-allowed': setting(list, {
    default: '',
    description:
      'Roles that may use the built-in management endpoints (health, metrics, the OpenAPI document, Swagger UI): a caller needs one of them (401 without a credential, 403 with another role). Empty: they are open. Needs an authentication mechanism.',
  }),
  'framework.management.include-health': setting(boolean, {
    default: 'true',
    description:
      'Whether framework.management.roles-allowed covers the health checks too; false leaves them open for orchestrator probes, which send no credential.',
  }),
  'framework.metrics.enabled': setting(boolean, {
    default: 'false',
    description:
      'Collect Prometheus metrics (requests by route template, streams, worker lane, process) and serve them at framework.metrics.path; timing each request costs CPU, so off unless asked for.',
  }),
  'framework.metrics.path': setting(text, {
    default: '/q/metrics',
    description: 'Path of the metrics, in Prometheus text format.',
  }),
  'framework.http.limits.max-body-size': setting(size, {
    default: '10M',
    description: 'Largest request body accepted; larger gets 413.',
  }),
  'framework.http.limits.max-stream-item-size': setting(size, {
    default: '1M',
    description:
      'Largest item of a request body read as a Multi (one NDJSON line, one JSON array element...); larger gets 413.',
  }),
  'framework.http.limits.max-form-attribute-size': setting(size, {
    default: '2048',
    description: 'Largest non-file multipart part; larger gets 413.',
  }),
  'framework.http.limits.max-multipart-file-size': setting(size, {
    optional: true,
    description: 'Largest uploaded file part; unlimited (within max-body-size) when absent.',
  }),
  'framework.http.limits.max-uploads-size': setting(size, {
    default: '1G',
    description:
      'Bytes the uploads in progress of the application (multipart files and LocalFile bodies) may hold on disk together; an upload whose file would pass it gets a 503 problem with Retry-After. Given back when a request ends or its files are deleted. 0: no limit.',
  }),
  'framework.http.limits.max-parts': setting(integer(1), {
    default: '1000',
    description: 'Most parts in one multipart request.',
  }),
  'framework.http.limits.max-fields': setting(integer(1), {
    default: '1000',
    description: 'Most non-file fields in one multipart request.',
  }),
  'framework.http.limits.max-header-size': setting(sizeWithin(0, MAX_PART_HEADER_SIZE, PART_HEADER_MEANING), {
    default: '16K',
    description:
      "Largest header block of one multipart part, as the parser counts it (its bytes and two more per line); at most 16K, the parser's own bound.",
  }),
  'framework.http.limits.max-streams': setting(integer(0), {
    default: '10000',
    description:
      'Stream responses (SSE, NDJSON, JSON arrays, chunks) the process writes at once; past it a stream request gets a 503 problem with Retry-After. 0: no limit.',
  }),
  'framework.http.limits.max-streams-per-client': setting(integer(0), {
    default: '1000',
    description:
      'Stream responses one client (its principal, else its address, as rate limits key it) holds open at once, over every endpoint; past it a 429 problem. 0: no limit.',
  }),
  'framework.http.limits.max-concurrent-streams': setting(integer(1, 2 ** 31 - 1), {
    default: '100',
    description:
      'SETTINGS_MAX_CONCURRENT_STREAMS of HTTP/2 sessions: requests one connection may have open at once (RFC 9113 §6.5.2).',
  }),
  'framework.http.body.uploads-directory': setting(text, {
    default: 'uploads',
    description: 'Directory uploaded files are written to, relative to the working directory.',
  }),
  'framework.http.body.delete-uploaded-files-on-end': setting(boolean, {
    default: 'true',
    description: 'Delete uploaded files when the response has been sent.',
  }),
  'framework.http.enable-compression': setting(boolean, {
    default: 'false',
    description: 'Compress responses (@Compressed methods and compress-media-types).',
  }),
  'framework.http.compress-media-types': setting(list, {
    default: 'text/html,text/plain,text/xml,text/css,text/javascript,application/javascript',
    description: 'Content types compressed when compression is enabled.',
  }),
  'framework.http.compression-level': setting(integer(1, 9), {
    default: '6',
    description: 'Compression level, 1 (fastest) to 9 (smallest).',
  }),
  'framework.http.compressors': setting(listOf(COMPRESSORS), {
    default: 'br,gzip,deflate',
    description: 'Content codings offered, in order of preference.',
  }),
  'framework.http.static.directory': setting(text, {
    optional: true,
    description: 'Directory of static files to serve; no static serving when absent.',
  }),
  'framework.http.static.serve-dotfiles': setting(boolean, {
    default: 'false',
    description:
      'Serve static files whose path has a segment starting with a dot (.env, .git/config); when false they answer 404 as if absent, except under /.well-known/.',
  }),
  'framework.http.cors.enabled': setting(boolean, {
    default: 'false',
    description:
      'Answer cross-origin requests by the framework.http.cors.* rules (preflights before routing); same-origin and non-browser requests are unaffected.',
  }),
  'framework.http.cors.origins': setting(list, {
    default: '',
    description:
      'Origins allowed to call: exact origins (https://app.example.com), * for any, or /regex/; none when empty.',
  }),
  'framework.http.cors.methods': setting(list, {
    default: '',
    description: 'Methods a preflight allows; the requested one when empty.',
  }),
  'framework.http.cors.headers': setting(list, {
    default: '',
    description: 'Request headers a preflight allows; the requested ones when empty.',
  }),
  'framework.http.cors.exposed-headers': setting(list, {
    default: '',
    description:
      'Response headers the calling page may read besides the safelisted ones (Access-Control-Expose-Headers).',
  }),
  'framework.http.cors.access-control-max-age': setting(duration, {
    optional: true,
    description: 'How long a browser may cache a preflight answer (Access-Control-Max-Age).',
  }),
  'framework.http.cors.access-control-allow-credentials': setting(boolean, {
    default: 'false',
    description:
      'Let pages send cookies and HTTP authentication (Access-Control-Allow-Credentials); the origin is then echoed, never *.',
  }),
  'framework.http.rate-limit.requests': setting(integer(0), {
    default: '0',
    description:
      'Requests a client (its principal, else its address) may make per window to each endpoint without @RateLimit; 0: no limit.',
  }),
  'framework.http.rate-limit.window': setting(duration, {
    default: '1m',
    description: 'The window framework.http.rate-limit.requests counts in (whole seconds).',
  }),
  'framework.http.rate-limit.streams': setting(integer(0), {
    default: '0',
    description: 'Streams a client may hold open at once on each streaming endpoint without @RateLimit; 0: no limit.',
  }),
  'framework.http.rate-limit.failed-authentications': setting(integer(0), {
    default: '100',
    description:
      'Refused credentials (wrong API keys, forged or expired tokens) an address may send per failed-authentications-window; past them every request of that address carrying a credential answers 429 until the window ends. 0: not counted.',
  }),
  'framework.http.rate-limit.failed-authentications-window': setting(duration, {
    default: '1m',
    description: 'The window framework.http.rate-limit.failed-authentications counts in (whole seconds).',
  }),
  'framework.http.rate-limit.ipv6-prefix-length': setting(integer(1, 128), {
    default: '64',
    description:
      'Leading bits of an IPv6 client address that name one client for rate limits and failed authentications: a host commonly holds a whole /64 and could take a new address per request. 128: every address apart.',
  }),
  'framework.http.rate-limit.backend': setting(oneOf(['memory', 'redis'] as const), {
    default: 'memory',
    description:
      'Where request counts are kept: memory (per process) or redis (shared by every instance and worker). Open streams are counted per process.',
  }),
  'framework.http.rate-limit.redis.url': setting(text, {
    default: 'redis://localhost:6379',
    description: 'The Redis server of the redis rate-limit backend.',
  }),
  'framework.http.proxy.proxy-address-forwarding': setting(boolean, {
    default: 'false',
    description:
      'Trust Forwarded / X-Forwarded-* headers for the client address (as framework.http.proxy.trusted-proxies says), scheme and host.',
  }),
  'framework.http.proxy.trusted-proxies': setting(list, {
    default: '',
    description:
      'IP addresses and CIDR blocks (IPv4, IPv6) of the proxies in front: the client address is the rightmost forwarded hop not written by one of them. Empty: the peer is the only proxy, its entry (the rightmost) the client.',
  }),
  'framework.http.proxy.client-address-header': setting(oneOf(['x-forwarded-for', 'forwarded'] as const), {
    default: 'x-forwarded-for',
    description:
      'The header the proxies write the client address to (x-forwarded-for with X-Forwarded-Proto/-Host/-Port, or forwarded: RFC 7239 for=, proto=, host=); the other family is ignored for the address, scheme and host.',
  }),
  'framework.http.allowed-hosts': setting(hostList, {
    default: '',
    description:
      'Host header values the server answers for (name, name:port, *.domain for names below it, * for any); another Host gets a 400 problem. Empty: any Host.',
  }),
  'framework.http.public-base-url': setting(origin, {
    optional: true,
    description:
      'The origin clients reach the server at (https://api.example.com): absolute URLs (Location from UriInfo, Link headers, the request URL) use it instead of the Host or forwarding headers.',
  }),
  'framework.http.nosniff': setting(boolean, {
    default: 'true',
    description:
      'Send X-Content-Type-Options: nosniff on every answer, so that browsers never run a text or JSON body as a script or page.',
  }),
  'framework.http.port': setting(integer(0, 65535), {
    default: '8080',
    description: 'Port to listen on; 0 picks a free one.',
  }),
  'framework.http.host': setting(text, {
    default: '0.0.0.0',
    description: 'Interface to listen on.',
  }),
  'framework.broadcast.backend': setting(oneOf(['memory', 'redis', 'redis-streams'] as const), {
    default: 'memory',
    description:
      'How broadcast() events reach subscribers: memory (this process), redis (pub/sub, every instance) or redis-streams (every instance, with a history in Redis that survives restarts).',
  }),
  'framework.broadcast.redis.url': setting(text, {
    default: 'redis://localhost:6379',
    description:
      'The Redis server of the redis and redis-streams broadcast backends (redis://[:password@]host:port[/db]).',
  }),
  'framework.broadcast.redis.live-window': setting(duration, {
    default: '5s',
    description:
      'On redis-streams: events published within this long stay in their stream whatever retention.max-events says (max-bytes still bounds them), so that an instance whose reader falls this far behind (a busy moment) still reads them all; 0 keeps only the last 100 for it.',
  }),
  'framework.broadcast.retention.max-events': setting(integer(0), {
    default: '10000',
    description:
      "Events a topic keeps for subscribers that resume with Last-Event-ID (a topic's own replay option wins).",
  }),
  'framework.broadcast.retention.max-age': setting(duration, {
    default: '1h',
    description:
      'How long a topic keeps an event for subscribers that resume; 0 keeps events until max-events pushes them out.',
  }),
  'framework.broadcast.retention.max-bytes': setting(size, {
    default: '8M',
    description:
      "Bytes of events (their JSON) a topic keeps for subscribers that resume, oldest dropped first; bounds a topic's history in memory and in Redis whatever its events weigh.",
  }),
  'framework.broadcast.retention.max-total-bytes': setting(size, {
    default: '256M',
    description:
      "Bytes of events the application keeps in this process across all its topics, the oldest (whatever their topic) dropped first: bounds what max-topics topics of retention.max-bytes each could hold. Redis Streams' own history is bounded per topic by retention.max-bytes.",
  }),
  'framework.broadcast.max-event-size': setting(size, {
    default: '64K',
    description: 'Largest event (its JSON) publish() takes; a larger one is refused (413 problem), never sent or kept.',
  }),
  'framework.broadcast.max-topics': setting(integer(1), {
    default: '10000',
    description:
      'Topics one process holds at once (with a subscriber or history here). A topic with neither is let go; past it, the topic with only history whose newest event is the oldest gives way (its history here dropped), and a new topic is refused (503 problem) only when every topic has a subscriber or a stream running here.',
  }),
  'framework.http.ssl.certificate.file': setting(text, {
    optional: true,
    description:
      'PEM certificate (chain) of the TLS port; with key-file, turns HTTPS (and HTTP/2) on. Relative to application.properties.',
  }),
  'framework.http.ssl.certificate.key-file': setting(text, {
    optional: true,
    description: 'PEM private key of the certificate. Relative to application.properties.',
  }),
  'framework.http.ssl.certificate.key-password': setting(text, {
    optional: true,
    description: 'Passphrase of an encrypted private key.',
  }),
  'framework.http.ssl-port': setting(integer(0, 65535), {
    default: '8443',
    description: 'Port of HTTPS when a certificate is configured; 0 picks a free one.',
  }),
  'framework.http.http2': setting(boolean, {
    default: 'true',
    description:
      'Offer HTTP/2 on the TLS port (ALPN h2, with HTTP/1.1 for clients without it); false serves HTTPS/1.1 only.',
  }),
  'framework.http.insecure-requests': setting(oneOf(['enabled', 'redirect', 'disabled'] as const), {
    default: 'enabled',
    description:
      'With TLS on, what the plain port does: enabled (serves as before), redirect (308 to HTTPS), disabled (not opened).',
  }),
  'framework.http.h2c': setting(boolean, {
    default: 'false',
    description:
      'Serve cleartext HTTP/2 with prior knowledge on the plain port (behind a proxy speaking HTTP/2 upstream); no HTTP/1.1 there then.',
  }),
  'framework.http.workers': setting(processCount, {
    default: '1',
    description:
      'Processes serving the port: 1, N, or auto (one per CPU). Above 1, listen() forks node:cluster workers and the primary only supervises them.',
  }),
  'framework.http.request-timeout': setting(duration, {
    default: '300s',
    description: 'Time allowed to receive a whole request; 0 disables.',
  }),
  'framework.http.headers-timeout': setting(duration, {
    default: '60s',
    description:
      'Time allowed to receive the request headers; on the TLS port also to complete the TLS handshake before them (at most 120 s).',
  }),
  'framework.http.body-idle-timeout': setting(duration, {
    default: '30s',
    description:
      'A request body no byte of arrives for this long (while its reader waits) ends the request with 408, removing what a multipart upload wrote; 0 disables.',
  }),
  'framework.http.keep-alive-timeout': setting(duration, {
    default: '5s',
    description:
      'Idle time before a keep-alive connection is closed: an HTTP/1.1 connection between requests, an HTTP/2 session with no open stream (GOAWAY). 0 never closes one.',
  }),
  'framework.security.jwt.jwks-url': setting(text, {
    optional: true,
    description:
      'Bearer JWTs are verified with the keys of this JWKS (fetched when first needed, cached for 10 minutes, fetched again for an unknown kid).',
  }),
  'framework.security.jwt.jwks-refresh-interval': setting(duration, {
    default: '30s',
    description:
      'The JWKS is fetched again for a token with an unknown kid at most this often, so a flood of made-up kids costs one fetch.',
  }),
  'framework.security.jwt.jwks-max-stale': setting(duration, {
    default: '1h',
    description:
      'While the JWKS cannot be read, the keys last read verify tokens for at most this long after they were read; past it a token answers 503 (a key the provider removed stops admitting tokens then, outage or not).',
  }),
  'framework.security.jwt.public-key-file': setting(text, {
    optional: true,
    description: 'Bearer JWTs are verified with this PEM public key (SPKI or a certificate), instead of a JWKS.',
  }),
  'framework.security.jwt.issuer': setting(text, {
    optional: true,
    description: 'The iss a token must carry; any when absent.',
  }),
  'framework.security.jwt.audience': setting(list, {
    optional: true,
    description: 'An aud a token must carry (one of these); any when absent.',
  }),
  'framework.security.jwt.roles-claim': setting(text, {
    default: 'groups',
    description:
      "The claim holding the roles, as MicroProfile JWT's groups; a dotted path reaches into objects (realm_access.roles).",
  }),
  'framework.security.jwt.roles-claim-delimited': setting(boolean, {
    default: 'false',
    description:
      "A string roles claim lists roles separated by spaces (as OAuth's scope does); when false a string claim is one role.",
  }),
  'framework.security.jwt.clock-skew': setting(duration, {
    default: '30s',
    description: 'How far exp, nbf and iat may be off the server clock; at most 5m.',
  }),
  'framework.security.jwt.algorithms': setting(list, {
    default: 'RS256,RS384,RS512,PS256,PS384,PS512,ES256,ES384,ES512,EdDSA',
    description: 'The signature algorithms a token may use: asymmetric ones only unless listed here.',
  }),
  'framework.security.streams.end-on-expiry': setting(boolean, {
    default: 'true',
    description: 'A stream opened with a credential that expires ends then (SSE: an event: expired first).',
  }),
  'framework.websocket.max-message-size': setting(size, {
    default: '1M',
    description: 'Largest WebSocket message accepted; a larger one closes the socket with 1009 (message too big).',
  }),
  'framework.websocket.max-message-fragments': setting(integer(1), {
    optional: true,
    description:
      'Most frames one WebSocket message may come in; more close the socket with 1008. When absent, one per 64 bytes of framework.websocket.max-message-size (16384 for 1M).',
  }),
  'framework.websocket.compression': setting(boolean, {
    default: 'false',
    description:
      'Offer permessage-deflate (RFC 7692) to WebSocket clients; each socket that has used it keeps its zlib state, about 240 KB. Messages under 1 KB go uncompressed.',
  }),
  'framework.websocket.allowed-origins': setting(list, {
    default: '',
    description:
      "Origins whose pages may open WebSockets besides the socket's own (its Host) and those CORS allows when on: exact origins, /regex/, or * for any. Upgrades from other origins answer 403; clients sending no Origin are not browsers and pass.",
  }),
  'framework.websocket.incoming-buffer': setting(size, {
    default: '1M',
    description:
      'Bytes of received WebSocket messages held for a handler that lags; past them the socket is paused until it catches up.',
  }),
  'framework.websocket.ping-interval': setting(duration, {
    default: '30s',
    description:
      'Interval of WebSocket pings; a peer that has not answered the last one by the next is closed. 0 disables.',
  }),
  'framework.websocket.idle-timeout': setting(duration, {
    default: '0',
    description:
      'A WebSocket with no message either way for this long is closed with 1001; 0 never closes an idle socket.',
  }),
  'framework.mcp.allowed-hosts': setting(list, {
    default: 'localhost,127.0.0.1,[::1]',
    description:
      'Host names (any port) an MCP request may be addressed to (Host) and sent from (Origin, when present); others answer 403, against DNS rebinding. * allows any.',
  }),
  'framework.mcp.session-timeout': setting(duration, {
    default: '30m',
    description: 'An MCP session with no request for this long is ended; its client then starts a new one.',
  }),
  'framework.mcp.max-sessions': setting(integer(1), {
    default: '1000',
    description:
      'MCP sessions one server holds in one process at once: past it, initialize ends the session idle the longest (its client starts a new one), or answers 503 when all are in use.',
  }),
  'framework.mcp.max-batch-size': setting(integer(1), {
    default: '100',
    description:
      'Messages one JSON-RPC batch (a POST of an array) may hold; a larger one is refused (400, -32600) before any runs.',
  }),
  'framework.mcp.call-grace': setting(duration, {
    default: '30s',
    description:
      'How long an MCP tool call goes on once no client reads its stream, for the client to resume it with Last-Event-ID.',
  }),
  'framework.mcp.sse-retry': setting(duration, {
    default: '1s',
    description: 'The SSE retry an MCP call stream gives its client: how long it waits before resuming a cut stream.',
  }),
  'framework.shutdown.timeout': setting(duration, {
    default: '10s',
    description: 'Time in-flight requests get to finish on shutdown.',
  }),
  'framework.legacy.gzip.enabled': setting(boolean, {
    default: 'false',
    description: 'Legacy stack only: enable @GZIP request and response bodies.',
  }),
  'framework.legacy.gzip.max-input': setting(size, {
    default: '10M',
    description: 'Legacy stack only: largest inflated request body.',
  }),
  'framework.json.fail-on-unknown-properties': setting(boolean, {
    default: 'false',
    description: 'Reject JSON bodies with properties the target type does not declare.',
  }),
  'framework.json.write-dates-as-timestamps': setting(boolean, {
    default: 'false',
    description: 'Write dates as epoch milliseconds instead of ISO-8601 text.',
  }),
  'framework.log.level': setting(logLevel, {
    default: 'INFO',
    description: 'Root log level.',
  }),
};

/** The typed configuration: every `framework.*` key with its parsed value. */
export type FrameworkConfig = {
  readonly [K in keyof typeof frameworkSettings]: SettingValue<(typeof frameworkSettings)[K]>;
};

/** A `framework.*` key of the schema. */
export type FrameworkKey = keyof FrameworkConfig;

/** Every key of {@link frameworkSettings}, in declaration order. */
export const FRAMEWORK_KEYS = Object.keys(frameworkSettings) as readonly FrameworkKey[];

/** Whether `key` is one of the schema's. */
export function isFrameworkKey(key: string): key is FrameworkKey {
  return Object.hasOwn(frameworkSettings, key);
}

/** A value the schema refused: its key and what a valid one looks like. */
export interface SettingProblem {
  readonly key: FrameworkKey;
  readonly expected: string;
}

/** Every setting read from `raw` (a key left out takes its default): the typed values, and each value refused. */
export function readFrameworkSettings(raw: Partial<Record<FrameworkKey, RawValue>> = {}): {
  values: FrameworkConfig;
  problems: SettingProblem[];
} {
  const values: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  for (const key of FRAMEWORK_KEYS) {
    const read = readSetting<unknown>(frameworkSettings[key], raw[key]);
    if ('value' in read) values[key] = read.value;
    else problems.push({ key, expected: read.expected });
  }
  return { values: values as FrameworkConfig, problems };
}
