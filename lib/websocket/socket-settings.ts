/** `framework.websocket.*` and the stream and security settings every socket follows, read once. */
import type { Config } from '../config';
import type { SocketServerSettings } from './socket-server';

/** The settings of every socket; `authenticates`: the application has an authentication mechanism. */
export function socketSettings(config: Config, authenticates: boolean): SocketServerSettings {
  return {
    maxMessageSize: config.get('framework.websocket.max-message-size'),
    incomingBuffer: config.get('framework.websocket.incoming-buffer'),
    budget: config.get('framework.rest.stream.buffer-size'),
    overflow: config.get('framework.rest.stream.overflow'),
    pingIntervalMs: config.get('framework.websocket.ping-interval'),
    idleTimeoutMs: config.get('framework.websocket.idle-timeout'),
    endsOnExpiry: authenticates && config.get('framework.security.streams.end-on-expiry'),
  };
}
