/** WebSockets as a feature: the origin of every upgrade checked, the socket server made on first use, shut down. */
import { SOCKET_PATH } from '../decorators/websocket';
import { BuildKey } from '../feature/build-key';
import { HELD_BYTES } from '../feature/core-keys';
import { defineFeature } from '../feature/define-feature';
import { SECURITY } from '../security/security-feature';
import type { SocketServer } from './socket-server';
import { socketSettings } from './socket-settings';
import { upgradeOriginStep } from './upgrade-origin';
import { upgradesOnRuntime } from '../runtime/runtime-sockets';

/** The application's socket server, made (and the `ws` package loaded) with the first upgrade an endpoint accepts. */
export const SOCKETS = new BuildKey<() => SocketServer>('sockets');

export const webSocketFeature = defineFeature({
  name: 'websocket',
  settings: ['framework.websocket.', 'framework.http.cors.origins', 'framework.http.cors.enabled'],
  phases: ['authenticate', 'write'],
  answers: [
    { status: 403, when: 'an upgrade from an origin that is neither the socket’s own nor an allowed one' },
    { status: 426, when: 'a plain request to a socket endpoint' },
  ],
  transports: {
    upgrade:
      'the origin checked before security, limits and filters; an accepted upgrade is taken over after the response filters saw its 101',
    message: 'messages decoded, handed to the endpoint, answers sent through the socket’s budget and overflow policy',
  },
  // Bun, Deno and Workers upgrade with their own API: ws is Node's.
  packages: (build) =>
    !upgradesOnRuntime() && build.units.some((unit) => unit.meta.tags.has(SOCKET_PATH))
      ? [{ name: 'ws', feature: '@WebSocketEndpoint' }]
      : [],
  build(build) {
    let sockets: SocketServer | undefined;
    // When the sockets are cut, once shut down: a first socket may still open after that (its handshake under way).
    let cutAt: number | undefined;
    build.provide(SOCKETS, () => {
      if (sockets) return sockets;
      const { SocketServer } = require('./socket-server') as typeof import('./socket-server');
      const settings = socketSettings(build.config, build.find(SECURITY) !== undefined, build.find(HELD_BYTES));
      sockets = new SocketServer(settings);
      if (cutAt !== undefined) sockets.shutdown(Math.max(0, cutAt - Date.now()));
      return sockets;
    });
    const origin = upgradeOriginStep(build.config);
    return {
      endpoint: (plan) =>
        plan.transport === 'upgrade' ? [{ phase: 'authenticate', step: origin, answers: [403] }] : undefined,
      // Open sockets close with 1001 after their queued messages (cut at the end of the grace).
      shutdown: (graceMs) => {
        cutAt = Date.now() + graceMs;
        sockets?.shutdown(graceMs);
      },
      // The server has closed: a later listen() opens sockets again.
      close: () => {
        cutAt = undefined;
        sockets?.reopen();
      },
    };
  },
});
