/** `/chat`: messages posted by anyone reach every open stream, on every instance sharing the broadcast backplane. */
import { z } from 'zod';
import {
  broadcast,
  Consumes,
  GET,
  HeaderParam,
  Path,
  POST,
  Produces,
  ResponseStatus,
  type Multi,
  type SseEvent,
} from '../../lib';

/**
 * A chat message, checked by its zod schema before it is published: bounded, since anyone may post one and every
 * client that resumes is sent what the topic keeps.
 */
export class ChatMessage {
  static readonly schema = z.object({
    user: z.string().min(1, 'a message needs a user').max(64, 'a user name has at most 64 characters'),
    text: z.string().min(1, 'a message needs text').max(2000, 'a message has at most 2,000 characters'),
  });

  user = '';
  text = '';
}

/** Messages stay (`framework.broadcast.retention.*`) for clients that reconnect with `Last-Event-ID`. */
const chat = broadcast<ChatMessage>('chat');

@Path('chat')
export class ChatResource {
  /**
   * Publishes the message to every `/chat/stream` client: 202, empty, once it is stored. 503 with `Retry-After`
   * when it cannot be (Redis unreachable, on `redis-streams`); a retry with the same `Idempotency-Key` is
   * published once.
   */
  @POST
  @Path('messages')
  @Consumes('application/json')
  @ResponseStatus(202)
  async post(
    message: ChatMessage,
    @HeaderParam('Idempotency-Key', {
      schema: z.string().max(128, 'an idempotency key has at most 128 characters').optional(),
    })
    idempotencyKey?: string,
  ): Promise<void> {
    await chat.publish({ user: message.user, text: message.text }, { idempotencyKey });
  }

  /**
   * Every message posted after connecting, as SSE with ids (or NDJSON of `{ id, data }`); after a reconnection
   * with `Last-Event-ID`, the ones missed first, or `event: reset` (`Stream-Reset` for NDJSON) when they are gone.
   */
  @GET
  @Path('stream')
  @Produces('text/event-stream', 'application/x-ndjson')
  stream(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return chat.subscribe({ lastEventId });
  }
}

export const chatSampleClasses: Function[] = [ChatResource];
