/** What the build step makes of a `@WebSocketEndpoint` class: its callbacks, ready to call with a connection's request. */
import type { ExceptionMappers } from '../errors/exception-mappers';
import type { JsonMapper } from '../json/json-mapper';
import type { RequestContext } from '../context/request-context';

/** One method of the class: its arguments read from the upgrade request, `message` where the message parameter is. */
export interface SocketCallback {
  /** `Class#method`, for logs. */
  readonly where: string;
  /** The method's name. */
  readonly method: string;
  call(ctx: RequestContext, message?: unknown): unknown;
}

/** A text or binary message method. */
export interface MessageCallback extends SocketCallback {
  /** Takes a `Multi` of every message (called once), rather than each message. */
  readonly takesAll: boolean;
  /** The message as the method's parameter declares it; throws a 400 problem for one that does not fit. */
  decode(data: Buffer, binary: boolean): unknown;
}

export interface SocketHandlers {
  readonly open?: SocketCallback;
  readonly text?: MessageCallback;
  readonly binary?: MessageCallback;
  readonly close?: SocketCallback;
  readonly error?: SocketCallback;
  /** The mappers that apply to the class, for errors `@OnError` does not take. */
  readonly mappers: ExceptionMappers;
  /** Writes what is neither text nor bytes as JSON text. */
  readonly json: JsonMapper;
}
