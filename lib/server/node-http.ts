/** The Node built-ins `listen()` loads at first use, and the requests and responses its listeners take. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { nodeBuiltin } from '../runtime/node-builtins';

export type Incoming = IncomingMessage | Http2ServerRequest;
export type Outgoing = ServerResponse | Http2ServerResponse;
export type RequestListener = (incoming: Incoming, outgoing: Outgoing) => void;

const LISTENER = 'the Node listener (listen())';
export const nodeHttp = () => nodeBuiltin('node:http', LISTENER);
export const nodeHttp2 = () => nodeBuiltin('node:http2', LISTENER);
export const nodeHttps = () => nodeBuiltin('node:https', LISTENER);
export const nodeCluster = () => nodeBuiltin('node:cluster', 'worker processes (framework.http.workers)');
