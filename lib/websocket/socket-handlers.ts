/** What the build step makes of a `@WebSocketEndpoint` class (plain data), and how a socket calls its methods. */
import type { ApplicationBroadcast } from '../broadcast/application-broadcast';
import type { RequestContext } from '../context/request-context';
import type { ExceptionMappers } from '../errors/exception-mappers';
import type { Framing } from '../streaming/framing';
import type { ArgumentReader } from '../params/argument-spec';

/** One method of the class: its arguments read from the upgrade request, `message` where the message parameter is. */
export interface SocketCallback {
  /** `Class#method`, for logs. */
  readonly where: string;
  readonly method: string;
  readonly instance: object;
  readonly fn: (...args: unknown[]) => unknown;
  /** The reader of each argument; none at the message (or error) parameter. */
  readonly readers: readonly (ArgumentReader | undefined)[];
  /** Where the message (or error) parameter is: -1 when there is none. */
  readonly at: number;
  /** Takes the upgrade's response (a `ResponseContext`, or the `RequestContext` that holds it). */
  readonly takesResponse: boolean;
}

/** A text or binary message method. */
export interface MessageCallback extends SocketCallback {
  /** Takes a `Multi` of every message (called once), rather than each message. */
  readonly takesAll: boolean;
  /** The message as the method's parameter declares it; throws a 400 problem for one that does not fit. */
  readonly decode: (data: Buffer) => unknown;
}

export interface SocketHandlers {
  /** A method takes the upgrade's response: each socket keeps its own, not the bare 101 the others share. */
  readonly ownResponse: boolean;
  readonly open?: SocketCallback;
  readonly text?: MessageCallback;
  readonly binary?: MessageCallback;
  readonly close?: SocketCallback;
  readonly error?: SocketCallback;
  /** The mappers that apply to the class, for errors `@OnError` does not take. */
  readonly mappers: ExceptionMappers;
  /** How what the methods answer is sent (one framing for all the sockets of the application). */
  readonly framing: Framing;
  /** The application's broadcast (started once the build has found no problem; no socket method runs before). */
  readonly broadcast: () => ApplicationBroadcast;
}

/** Calls `callback` with its arguments read from `ctx`, as the application's (its broadcast topics are this one's). */
export function callSocketMethod(
  handlers: SocketHandlers,
  callback: SocketCallback,
  ctx: RequestContext,
  message?: unknown,
): unknown {
  const { readers, at } = callback;
  const args = new Array<unknown>(readers.length);
  for (let i = 0; i < readers.length; i++) args[i] = i === at ? message : readers[i]?.(ctx);
  return handlers.broadcast().within(() => callback.fn.apply(callback.instance, args));
}
