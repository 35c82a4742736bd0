/** The `@PartType` decorator: the media type a multipart part is read or written as. It only records metadata. */
import { metaKey, ownerOf, paramMeta, propertyMeta } from '../metadata/store';
import { memberName, type ParamOrPropertyDecorator } from './decorator-types';

/** The media type given by `@PartType`, on a parameter's or a property's tags. */
export const PART_TYPE = metaKey<string>('part-type');

/**
 * The media type of a multipart part, needed only when it is not the default (`text/plain` for strings and
 * scalars, `application/octet-stream` for files, JSON for other objects).
 *
 * @example
 * @POST upload(@RestForm() @PartType('application/json') person: Person) {}
 */
export function PartType(mediaType: string): ParamOrPropertyDecorator {
  return (target, propertyKey, parameterIndex) => {
    const owner = ownerOf(target);
    if (typeof parameterIndex === 'number') {
      // 'body' until @RestForm (applied after, decorators run bottom-up) sets the kind.
      paramMeta(
        owner,
        propertyKey === undefined ? 'constructor' : memberName(propertyKey),
        parameterIndex,
        'body',
      ).tags.set(PART_TYPE, mediaType);
    } else {
      propertyMeta(owner, memberName(propertyKey!)).tags.set(PART_TYPE, mediaType);
    }
  };
}
