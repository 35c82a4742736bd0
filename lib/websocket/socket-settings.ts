/** `framework.websocket.*` and the stream and security settings every socket follows, read once. */
import type { Config } from '../config';
import type { OutputSettings } from '../streaming/frame-writer';
import type { HeldBytes } from '../streaming/held-bytes';

export type SocketSettings = ReturnType<typeof socketSettings>;

/** The settings of every socket; `authenticates`: the application has an authentication mechanism. */
export function socketSettings(config: Config, authenticates: boolean, heldBytes?: HeldBytes) {
  const maxMessageSize = config.get('framework.websocket.max-message-size');
  // The outgoing byte budget and overflow (`framework.rest.stream.*`): one object for every socket.
  const output: OutputSettings = {
    bufferSize: config.get('framework.rest.stream.buffer-size'),
    overflow: config.get('framework.rest.stream.overflow'),
    keepAliveMs: 0,
    heldBytes,
  };
  return {
    /** A larger message closes the socket with 1009. */
    maxMessageSize,
    // A fragment costs the receiver about 130 bytes besides its payload (measured with ws 8: a 1 MB message in 1-byte
    // fragments held 130 MB): one per 64 bytes bounds that to twice the message size. More close with 1008 (by `ws`).
    maxFragments:
      config.get('framework.websocket.max-message-fragments') ?? Math.max(1, Math.ceil(maxMessageSize / 64)),
    compression: config.get('framework.websocket.compression'),
    /** `framework.http.nosniff`, for the refusal of a malformed handshake. */
    nosniff: config.get('framework.http.nosniff'),
    /** Received bytes held for a lagging handler before the socket is paused. */
    incomingBuffer: config.get('framework.websocket.incoming-buffer'),
    output,
    pingIntervalMs: config.get('framework.websocket.ping-interval'),
    idleTimeoutMs: config.get('framework.websocket.idle-timeout'),
    /** Close the socket when the credential that opened it expires. */
    endsOnExpiry: authenticates && config.get('framework.security.streams.end-on-expiry'),
  } as const;
}
