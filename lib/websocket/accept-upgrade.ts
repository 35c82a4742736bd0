/** A WebSocket endpoint's last stage: an upgrade is taken over once the response filters ran; anything else is 426. */
import { httpProblem } from '../errors/http-problem';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { takeOver } from '../context/takeover';
import type { SocketHandlers } from './socket-handlers';
import type { SocketServer } from './socket-server';
import { asksForWebSocket } from './upgrade-origin';
import { upgradeOf } from './upgrades';
import { upgradesOnRuntime } from '../runtime/runtime-sockets';

/** Answers an upgrade 101 (the filters' headers go out with the handshake), for the socket server to take over. */
export function acceptUpgrade(handlers: SocketHandlers, sockets: () => SocketServer): StageFn {
  // One function for every upgrade of the endpoint: an open socket's request keeps no closure of its own.
  const take = (accepted: RequestContext): Response | undefined => sockets().accept(accepted, handlers);
  return (ctx) => {
    if (!asksForWebSocket(ctx) || (!upgradeOf(ctx) && !upgradesOnRuntime()))
      throw httpProblem('RXREST_UPGRADE_REQUIRED', 'This is a WebSocket endpoint: open it with a WebSocket client', {
        headers: { upgrade: 'websocket', connection: 'Upgrade' },
      });
    ctx.response = new ResponseContext(101);
    takeOver(ctx, take);
    return ctx;
  };
}
