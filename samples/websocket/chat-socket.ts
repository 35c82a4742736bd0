/**
 * `/ws/chat?room=<name>` (the room `lobby` without one): every `{"user", "text"}` message goes to every socket of
 * the room, on every instance sharing the broadcast backplane (Redis with `FRAMEWORK_BROADCAST_BACKEND`).
 */
import type { Observable } from 'rxjs';
import { z } from 'zod';
import {
  broadcast,
  OnError,
  OnOpen,
  OnTextMessage,
  QueryParam,
  WebApplicationException,
  WebSocketEndpoint,
  type ProblemDetails,
  type SseEvent,
} from '../../lib';
import { ChatMessage } from '../chat/chat-resource';
import { EchoSocket } from './echo-socket';

/** A room's name: letters, digits, `-` and `_`, at most 64 (anyone may name one, and each is a topic while in use). */
const roomName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a room is named by 1 to 64 letters, digits, - or _');

/** The topic of a room: one per room, shared by the instances. */
function room(name: string | undefined) {
  return broadcast<ChatMessage>(`ws-chat/${name || 'lobby'}`, { replay: 0 });
}

@WebSocketEndpoint('/ws/chat')
export class ChatSocket {
  /** From the moment it opens, the socket receives the room's messages (a broadcast topic's events, as their data). */
  @OnOpen
  join(@QueryParam('room', { schema: roomName.optional() }) name?: string): Observable<SseEvent> {
    return room(name).subscribe();
  }

  /** A message (validated by `ChatMessage.schema`) is published to the room; the sender gets it back like everyone. */
  @OnTextMessage
  async post(message: ChatMessage, @QueryParam('room', { schema: roomName.optional() }) name?: string): Promise<void> {
    await room(name).publish({ user: message.user, text: message.text });
  }

  /** A message that is not a chat message is answered with its problem details; the socket stays open. */
  @OnError
  refuse(error: unknown): ProblemDetails | { detail: string } {
    return (error instanceof WebApplicationException && error.problem) || { detail: 'The message was not published' };
  }
}

export const websocketSampleClasses: Function[] = [EchoSocket, ChatSocket];
