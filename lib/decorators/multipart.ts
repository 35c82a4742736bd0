/** The `@PartType` decorator: the media type a multipart part is read or written as. It only records metadata. */
import { metaKey } from '../metadata/store';
import { paramTag, tagFactory, type ParamOrPropertyDecorator } from './decorator-types';

export const PART_TYPE = metaKey<string>('part-type');

/**
 * The media type of a multipart part, needed only when it is not the default (`text/plain` for strings and
 * scalars, `application/octet-stream` for files, JSON for other objects).
 *
 * @example
 * @POST upload(@RestForm() @PartType('application/json') person: Person) {}
 */
export const PartType: (mediaType: string) => ParamOrPropertyDecorator = tagFactory(paramTag, PART_TYPE);
