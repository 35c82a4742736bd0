/** `framework.websocket.*` and the stream and security settings every socket follows, read once. */
import type { Config } from '../config';
import type { OutputSettings } from '../streaming/frame-writer';

export interface SocketSettings {
  /** Received bytes held for a lagging handler before the socket is paused. */
  readonly incomingBuffer: number;
  /** The outgoing byte budget and what happens past it (`framework.rest.stream.*`): one object for every socket. */
  readonly output: OutputSettings;
  readonly pingIntervalMs: number;
  readonly idleTimeoutMs: number;
  /** Close the socket when the credential that opened it expires. */
  readonly endsOnExpiry: boolean;
  /** `framework.websocket.max-message-size`: a larger message closes the socket with 1009. */
  readonly maxMessageSize: number;
  /** Frames one message may come in: more close the socket with 1008 (by `ws`). */
  readonly maxFragments: number;
  /** `framework.websocket.compression`: offer permessage-deflate. */
  readonly compression: boolean;
  /** `framework.http.nosniff`, for the refusal of a malformed handshake. */
  readonly nosniff: boolean;
}

/** The settings of every socket; `authenticates`: the application has an authentication mechanism. */
export function socketSettings(config: Config, authenticates: boolean): SocketSettings {
  const maxMessageSize = config.get('framework.websocket.max-message-size');
  return {
    maxMessageSize,
    // A fragment costs the receiver about 130 bytes besides its payload (measured with ws 8: a 1 MB message in 1-byte
    // fragments held 130 MB): one per 64 bytes bounds that to twice the message size.
    maxFragments:
      config.get('framework.websocket.max-message-fragments') ?? Math.max(1, Math.ceil(maxMessageSize / 64)),
    compression: config.get('framework.websocket.compression'),
    nosniff: config.get('framework.http.nosniff'),
    incomingBuffer: config.get('framework.websocket.incoming-buffer'),
    output: {
      bufferSize: config.get('framework.rest.stream.buffer-size'),
      overflow: config.get('framework.rest.stream.overflow'),
      keepAliveMs: 0,
    },
    pingIntervalMs: config.get('framework.websocket.ping-interval'),
    idleTimeoutMs: config.get('framework.websocket.idle-timeout'),
    endsOnExpiry: authenticates && config.get('framework.security.streams.end-on-expiry'),
  };
}
