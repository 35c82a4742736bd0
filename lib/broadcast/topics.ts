/** `broadcast(topic)`: a topic of the application in use, for code that holds it at module level. */
import { Broadcaster, type BroadcasterOptions } from './broadcaster';
import { applicationTopic } from './framework-topics';

/**
 * The broadcaster of `topic`. It holds no state: each application has its own topics, made on first use and let go
 * once they hold nothing. Used within an application's request, socket message or resumable stream it means that
 * application's topic; elsewhere (a timer, a queue consumer), the one application running in the process. Events
 * published on it reach every subscriber of the topic on every instance sharing the backplane
 * (`framework.broadcast.backend`).
 *
 * @example
 * const chat = broadcast<ChatMessage>('chat');
 * await chat.publish({ user: 'ada', text: 'hello' });
 */
export function broadcast<T>(topic: string, options: BroadcasterOptions = {}): Broadcaster<T> {
  return new Broadcaster<T>(applicationTopic(topic), options);
}
