/** The server's tracing: the OpenTelemetry API once an SDK is registered, and log records that carry the active span. */
import { readActiveSpansWith } from '../logging/logger';
import { openTelemetry, type Tracing } from './open-telemetry';

export type { Tracing } from './open-telemetry';

let reading = false;

/** The tracing of this process: `undefined` until an SDK registered a tracer provider. */
export function tracing(): Tracing | undefined {
  const loaded = openTelemetry();
  if (loaded && !reading) {
    reading = true;
    // Log records made while a span is active carry its ids.
    readActiveSpansWith(() => {
      const context = loaded.api.trace.getActiveSpan()?.spanContext();
      return context && loaded.api.isSpanContextValid(context) ? context : undefined;
    });
  }
  return loaded;
}
