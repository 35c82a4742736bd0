/** The response being built for a request, as response filters and writers see it (ContainerResponseContext). */
import { ResponseHeaders } from '../response/response-headers';

/** The status of a request whose client left before its answer (nginx's): neither a server error nor a sent 4xx. */
export const CLIENT_CLOSED = 499;

/** The mutable response of one request, before it is written: response filters change it in place. */
export class ResponseContext {
  status: number;
  readonly headers: ResponseHeaders;
  entity: unknown;
  /** The media type to write the entity as; negotiated from `@Produces` and `Accept` when not given. */
  mediaType: string | undefined;

  constructor(status: number, entity?: unknown, headers: ResponseHeaders = new ResponseHeaders(), mediaType?: string) {
    this.status = status;
    this.entity = entity;
    this.headers = headers;
    this.mediaType = mediaType;
  }

  /** Replaces the entity, and its media type when given. */
  setEntity(entity: unknown, mediaType?: string): void {
    this.entity = entity;
    if (mediaType !== undefined) this.mediaType = mediaType;
  }

  hasEntity(): boolean {
    return this.entity !== undefined && this.entity !== null;
  }
}
