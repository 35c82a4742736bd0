/** Compiles a `@WebSocketEndpoint` class: its callbacks and the `GET` endpoint its upgrades are routed to. */
import { PARAM_OPTIONS, type ParamOptions } from '../decorators/params';
import { NAME_BINDINGS } from '../decorators/providers';
import { SOCKET_CALLBACK, SOCKET_PATH, type SocketCallbackKind } from '../decorators/websocket';
import { locate } from '../errors/definition-error';
import type { ApplicationBroadcast } from '../broadcast/application-broadcast';
import type { Framing } from '../streaming/framing';
import { Tags, type MethodMeta } from '../metadata/store';
import { compileArgument, type ArgumentReader } from '../params/compile-argument';
import { compileStage, type Step } from '../pipeline/chain';
import type { Endpoint } from '../pipeline/endpoint';
import { RequestContext, type EndpointInfo } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { compilePathTemplate, joinPaths, type PathTemplate } from '../routing/path-template';
import { Multi } from '../streaming/multi';
import type { MessageCallback, SocketHandlers } from '../websocket/socket-handlers';
import type { SocketServer } from '../websocket/socket-server';
import { acceptUpgrade } from '../websocket/accept-upgrade';
import { messageDecoder } from '../websocket/message-decoder';
import { applicable, requestSteps } from '../pipeline/filters';
import { endpointOf, type EndpointContext } from './compile-endpoint';
import { checkPathName, methodParameters } from './compile-arguments';
import type { Unit } from '../metadata/unit';

type SocketContext = EndpointContext & {
  /** Made with the application's first socket endpoint. */
  readonly sockets: () => SocketServer;
  readonly framing: Framing;
  /** Which a socket's methods run within. */
  readonly broadcast: () => ApplicationBroadcast;
};

/** Whether a parameter of `type` reaches the upgrade's response (its status and headers). */
const givesResponse = (type: unknown): boolean => type === ResponseContext || type === RequestContext;

/** Readers of a callback's arguments from the upgrade request (none for the message), and its message's slot. */
function callbackParameters(
  unit: Unit,
  method: MethodMeta,
  kind: SocketCallbackKind,
  template: PathTemplate,
  context: SocketContext,
) {
  const { problems } = context;
  const readers: (ArgumentReader | undefined)[] = [];
  let takesResponse = false;
  // Where the message (or error) goes: its parameter's index, type and options.
  let slot: { readonly index: number; readonly type: unknown; readonly options: ParamOptions } | undefined;
  for (const param of methodParameters(unit.type, method, template).params) {
    const { meta, name, designType, where: at } = param;
    if (meta.kind === 'form') {
      problems.add(at, 'a WebSocket method has no form to read: take the message as its parameter');
      continue;
    }
    if (meta.kind === 'body') {
      if (kind === 'open' || kind === 'close')
        problems.add(
          at,
          `an @On${kind === 'open' ? 'Open' : 'Close'} method takes no message: inject WebSocketConnection, parameters of the upgrade request or SecurityContext`,
        );
      else if (slot) problems.add(at, `only one parameter can receive the ${kind === 'error' ? 'error' : 'message'}`);
      else slot = { index: meta.index, type: designType, options: meta.tags.get(PARAM_OPTIONS) ?? {} };
      readers.push(undefined);
      continue;
    }
    if (meta.kind === 'context') takesResponse ||= givesResponse(meta.tags.get(PARAM_OPTIONS)?.type ?? designType);
    checkPathName(param, template, problems);
    readers.push(
      problems.attempt(at, () => compileArgument({ meta, name, designType, settings: context.body, template })),
    );
  }
  return { readers, takesResponse, slot };
}

/** One callback method: readers of its arguments, and the slot of its message (or error) parameter. */
function compileCallback(
  unit: Unit,
  method: MethodMeta,
  kind: SocketCallbackKind,
  template: PathTemplate,
  context: SocketContext,
): MessageCallback {
  const { readers, takesResponse, slot } = callbackParameters(unit, method, kind, template, context);
  const takesAll = slot !== undefined && (slot.type === Multi || (slot.options.stream ?? false));
  const decode =
    slot && (kind === 'text' || kind === 'binary')
      ? messageDecoder(takesAll ? undefined : slot.type, slot.options, context.json)
      : () => undefined;
  return {
    where: locate(unit.type, method.name),
    method: method.name,
    instance: unit.instance as object,
    fn: (unit.instance as Record<string, (...args: unknown[]) => unknown>)[method.name]!,
    readers,
    at: slot?.index ?? -1,
    takesResponse,
    takesAll,
    decode,
  };
}

/** The callbacks of a socket endpoint class; two methods for one kind are a problem. */
function compileHandlers(unit: Unit, template: PathTemplate, context: SocketContext): SocketHandlers {
  const found: Partial<Record<SocketCallbackKind, MessageCallback>> = {};
  for (const method of unit.meta.methods.values()) {
    const kind = method.tags.get(SOCKET_CALLBACK);
    if (!kind) continue;
    if (found[kind]) {
      context.problems.add(
        locate(unit.type, method.name),
        `${found[kind].where} is already the class's @On${kind[0]!.toUpperCase()}${kind.slice(1)}${kind === 'text' || kind === 'binary' ? 'Message' : ''} method`,
      );
      continue;
    }
    found[kind] = compileCallback(unit, method, kind, template, context);
  }
  if (!found.text && !found.binary && !found.open)
    context.problems.add(
      locate(unit.type),
      'a @WebSocketEndpoint class needs an @OnOpen, @OnTextMessage or @OnBinaryMessage method',
    );
  return {
    ...found,
    ownResponse: Object.values(found).some((callback) => callback.takesResponse),
    mappers: context.mappers,
    framing: context.framing,
    broadcast: context.broadcast,
  };
}

/** A `GET` at the socket class's path: its access rule, limits and filters, then the handshake (426 if no upgrade). */
export function compileSocketEndpoint(unit: Unit, context: SocketContext): Endpoint | undefined {
  const { problems } = context;
  const where = locate(unit.type);
  const template = problems.attempt(where, () =>
    compilePathTemplate(joinPaths(context.applicationPath, unit.meta.tags.get(SOCKET_PATH) ?? '')),
  );
  if (!template) return undefined;
  const handlers = compileHandlers(unit, template, context);
  const info: EndpointInfo = {
    resourceClass: unit.type,
    methodName: (handlers.text ?? handlers.binary ?? handlers.open)?.method ?? '',
    httpMethod: 'GET',
    pathTemplate: template.template,
    produces: [],
    consumes: [],
    lane: 'event-loop',
  };
  const method = (unit.meta.methods.get(info.methodName) ?? { name: info.methodName, tags: new Tags() }) as MethodMeta;
  const joined = context.joins({ unit, method, where, info, produces: [], streams: true, transport: 'upgrade' });
  const bindings = new Set(unit.meta.tags.get(NAME_BINDINGS) ?? []);
  const steps: Step[] = [
    ...joined.at('authenticate'),
    ...joined.at('admit'),
    ...requestSteps(applicable(context.filters.request, bindings)),
    acceptUpgrade(handlers, context.sockets),
  ];
  const parts = { info, template, consumes: [], produces: [], readsBody: false };
  return endpointOf(parts, compileStage(steps)!, bindings, context);
}
