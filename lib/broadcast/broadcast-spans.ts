/** Broadcast traced: a publish's producer span travels with the event, each delivery's consumer span links to it. */
import type { Outgoing } from './backplane';
import type { BroadcastEvent } from './topic-events';
import type { Tracing } from '../tracing/open-telemetry';

export function publishTraced<O extends Pick<Outgoing, 'trace'>>(
  { api, tracer }: Tracing,
  topic: string,
  outgoing: O,
  publish: (outgoing: O) => Promise<string>,
): Promise<string> {
  const span = tracer.startSpan(`publish ${topic}`, {
    kind: api.SpanKind.PRODUCER,
    attributes: {
      'messaging.system': 'rxrest',
      'messaging.operation.type': 'send',
      'messaging.destination.name': topic,
    },
  });
  const carrier: Record<string, string> = {};
  api.propagation.inject(api.trace.setSpan(api.context.active(), span), carrier);
  const published = publish(carrier.traceparent ? { ...outgoing, trace: carrier.traceparent } : outgoing);
  published.then(
    (id) => (span.setAttribute('messaging.message.id', id), span.end()),
    (error: unknown) => {
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
      span.end();
    },
  );
  return published;
}

export function deliverTraced(
  { api, tracer }: Tracing,
  topic: string,
  event: BroadcastEvent,
  subscribers: number,
  take: () => void,
): void {
  const publisher = api.trace.getSpanContext(api.propagation.extract(api.ROOT_CONTEXT, { traceparent: event.trace }));
  const span = tracer.startSpan(
    `deliver ${topic}`,
    {
      kind: api.SpanKind.CONSUMER,
      links: publisher ? [{ context: publisher }] : [],
      attributes: {
        'messaging.system': 'rxrest',
        'messaging.operation.type': 'process',
        'messaging.destination.name': topic,
        'messaging.message.id': event.id,
        'rxrest.broadcast.subscribers': subscribers,
      },
    },
    api.ROOT_CONTEXT,
  );
  try {
    api.context.with(api.trace.setSpan(api.ROOT_CONTEXT, span), take);
  } finally {
    span.end();
  }
}
