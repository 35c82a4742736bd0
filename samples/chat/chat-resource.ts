/** `/chat`: messages posted by anyone reach every open stream, on every instance sharing the broadcast backplane. */
import { z } from 'zod';
import { broadcast, Consumes, GET, HeaderParam, Path, POST, Produces, ResponseStatus, type Multi, type SseEvent } from '../../lib';

/** A chat message, checked by its zod schema before it is published. */
export class ChatMessage {
  static readonly schema = z.object({
    user: z.string().min(1, 'a message needs a user'),
    text: z.string().min(1, 'a message needs text'),
  });

  user = '';
  text = '';
}

/** The last 100 messages stay for clients that reconnect with `Last-Event-ID`. */
const chat = broadcast<ChatMessage>('chat', { replay: 100 });

@Path('chat')
export class ChatResource {
  /** Publishes the message to every `/chat/stream` client: 202, empty. */
  @POST
  @Path('messages')
  @Consumes('application/json')
  @ResponseStatus(202)
  post(message: ChatMessage): void {
    chat.publish({ user: message.user, text: message.text });
  }

  /** Every message posted after connecting, as SSE with ids; after a reconnection, the ones missed first. */
  @GET
  @Path('stream')
  @Produces('text/event-stream')
  stream(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return chat.subscribe({ lastEventId });
  }
}

export const chatSampleClasses: Function[] = [ChatResource];
