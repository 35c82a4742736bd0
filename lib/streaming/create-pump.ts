/** A stream response's engine: a source (pushed or pulled) moved through a framing into a sink. */
import type { Framing } from './framing';
import type { StreamObserver } from './stream-observer';
import { FrameWriter } from './frame-writer';
import { PullPump } from './pull-pump';
import { PushPump } from './push-pump';
import type { StreamPump, StreamSettings } from './stream-pump';
import type { StreamSource } from './stream-source';

/** The pump for `source`: Observables are pushed under the byte budget, iterators pulled at the sink's pace. */
export function createPump(
  source: StreamSource,
  framing: Framing,
  settings: StreamSettings,
  onError: (error: unknown) => void,
  observer?: StreamObserver,
): StreamPump {
  const output = new FrameWriter(framing, settings.keepAliveMs, onError, observer);
  // SSE commits at once; other framings wait for the first item, so an early failure still gets a real status.
  const eager = framing.keepAlive;
  return source.kind === 'push'
    ? new PushPump(source.observable, output, settings, eager)
    : new PullPump(source.open, output, eager, settings.openStreams);
}
