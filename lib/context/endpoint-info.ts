/** What routing tells of a matched endpoint. */

/** Which lane the endpoint runs in (execution lanes: docs/streaming.md). */
export type Lane = 'event-loop' | 'worker';

/** What a matched endpoint tells about itself: filled by routing, read by filters, mappers, lanes and `ResourceInfo`. */
export interface EndpointInfo {
  readonly resourceClass: Function;
  readonly methodName: string;
  readonly httpMethod: string;
  readonly pathTemplate: string;
  readonly produces: readonly string[];
  readonly consumes: readonly string[];
  readonly lane: Lane;
}
