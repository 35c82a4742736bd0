/** A stream response's engine: a source (pushed or pulled) moved through a framing into a sink. */
import type { Framing } from './framing';
import type { StreamObserver } from './stream-observer';
import { StreamOutput } from './stream-output';
import { StreamPump, type StreamSettings } from './stream-pump';
import type { StreamSource } from './stream-source';

/** The engine of a stream response of `source`: Observables are pushed under the byte budget, iterators pulled at the sink's pace. */
export function createPump(
  source: StreamSource,
  framing: Framing,
  settings: StreamSettings,
  onError: (error: unknown) => void,
  observer?: StreamObserver,
): StreamPump {
  const output = new StreamOutput(framing, settings, onError, observer);
  // SSE commits at once; other framings wait for the first item, so an early failure still gets a real status.
  return new StreamPump(source, output, framing.keepAlive, settings.openStreams);
}
