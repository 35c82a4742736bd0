/** What a `@RestForm` parameter or property receives from a multipart part, decided once from its type at build time. */
import { FileUpload, UploadedFileHandle, UploadedFilePath } from './file-upload';

/** `text`: converted like other parameters; the rest are read from the part. */
export type PartTargetKind = 'text' | 'file' | 'path' | 'handle' | 'entity';

export interface PartTarget {
  readonly kind: PartTargetKind;
  readonly list: boolean;
  readonly element: unknown;
  /** The media type an entity part is read as (`@PartType`), else the part's own. */
  readonly partType: string | undefined;
}

const scalars = new Set<unknown>([String, Number, Boolean, BigInt, Date, Set, Object, Array, undefined]);
/** Types that say nothing beyond "text": an explicit text `@PartType` on them keeps the plain string path. */
const untyped = new Set<unknown>([String, Set, Object, Array, undefined]);

/** A one-string constructor, `fromString` or `valueOf`. */
function isStringConvertible(type: Function): boolean {
  const statics = type as unknown as Record<string, unknown>;
  return (
    type.length === 1 ||
    typeof statics.fromString === 'function' ||
    (Object.hasOwn(type, 'valueOf') && typeof statics.valueOf === 'function')
  );
}

function isTextType(mediaType: string | undefined): boolean {
  return mediaType === undefined || /^\s*text\/plain\s*(;|$)/i.test(mediaType);
}

export function partTarget(hint: unknown, designType: unknown, partType: string | undefined): PartTarget {
  const list = Array.isArray(hint) || (hint === undefined && (designType === Array || designType === Set));
  const element: unknown = Array.isArray(hint) ? hint[0] : (hint ?? designType);
  const kind = ((): PartTargetKind => {
    if (element === FileUpload) return 'file';
    if (element === UploadedFilePath) return 'path';
    if (element === UploadedFileHandle) return 'handle';
    if (!isTextType(partType)) return 'entity';
    // An explicit text @PartType on a non-string type asks for the readers, as for other media types.
    if (partType !== undefined && !untyped.has(element)) return 'entity';
    if (typeof element !== 'function' || scalars.has(element)) return 'text';
    return partType === undefined && !isStringConvertible(element) ? 'entity' : 'text';
  })();
  return { kind, list, element, partType };
}
