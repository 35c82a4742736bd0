/** The server's tracing: the OpenTelemetry API once an SDK is registered, and log records that carry the active span. */
import { readActiveSpansWith } from '../logging/logger';
import { openTelemetry, type Tracing } from './open-telemetry';

export type { Tracing } from './open-telemetry';

let reading = false;

/** `openTelemetry()`, making log records carry the active span's ids from its first answer. */
export function tracing(): Tracing | undefined {
  const loaded = openTelemetry();
  if (loaded && !reading) {
    reading = true;
    readActiveSpansWith(() => {
      const context = loaded.api.trace.getActiveSpan()?.spanContext();
      return context && loaded.api.isSpanContextValid(context) ? context : undefined;
    });
  }
  return loaded;
}
