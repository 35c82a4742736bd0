/** Automatic HAL: when a response is turned into HAL form, and what that form is. */
import { parseMediaType } from '../http/media-type';
import type { ResponseContext } from '../context/response-context';
import { entityClass } from './make-links';
import { HalCollectionWrapper } from '../hal/hal-collection-wrapper';
import { HalEntityWrapper } from '../hal/hal-entity-wrapper';
import type { HalService } from './hal-service';
import { RestMediaType } from '../hal/rest-media-type';

/** The `_embedded` name of automatically wrapped collections (HAL's `_embedded`, draft-kelly-json-hal). */
export const AUTOMATIC_COLLECTION_NAME = 'items';

export function isHalMediaType(mediaType: string | undefined): boolean {
  if (mediaType === undefined) return false;
  const parsed = parseMediaType(mediaType);
  return parsed !== undefined && `${parsed.type}/${parsed.subtype}` === RestMediaType.APPLICATION_HAL_JSON;
}

/** Only successful responses with an object entity that is not HAL already, bytes or a stream are wrapped. */
function isWrappable(response: ResponseContext): boolean {
  const { status, entity } = response;
  if (status < 200 || status > 299 || typeof entity !== 'object' || entity === null) return false;
  const kept = [HalEntityWrapper, HalCollectionWrapper, Uint8Array, ArrayBuffer, ReadableStream];
  return !kept.some((type) => entity instanceof type);
}

/** Replaces the entity with its HAL form when it is written as `application/hal+json` (an array as `items`). */
export function wrapHal(
  response: ResponseContext,
  negotiated: string | undefined,
  hal: HalService,
  declared: Function | undefined,
): void {
  if (!isHalMediaType(response.mediaType ?? negotiated) || !isWrappable(response)) return;
  const entity = response.entity as object;
  if (Array.isArray(entity)) {
    if (!entity.every((item: unknown): item is object => typeof item === 'object' && item !== null)) return;
    const type = declared ?? (entity.length > 0 ? entityClass(entity[0], undefined) : undefined);
    response.entity = hal.toHalCollectionWrapper(entity, AUTOMATIC_COLLECTION_NAME, type ?? Object);
  } else {
    response.entity = hal.toHalWrapper(entity, entityClass(entity, declared));
  }
}
