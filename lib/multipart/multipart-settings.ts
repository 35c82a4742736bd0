/** The limits and storage settings multipart parsing runs with, with finite defaults (busboy's are unlimited). */

export interface MultipartSettings {
  /** `framework.http.body.uploads-directory`. */
  readonly uploadsDirectory: string;
  /** `framework.http.body.delete-uploaded-files-on-end`. */
  readonly deleteUploadedFilesOnEnd: boolean;
  /** `framework.http.limits.max-body-size`: the whole request body, and so every file part. */
  readonly maxBodySize: number;
  /** `framework.http.limits.max-form-attribute-size`: every part held in memory (non-file parts). */
  readonly maxFormAttributeSize: number;
  /** `framework.http.limits.max-multipart-file-size`: every file part (`undefined`: max-body-size only). */
  readonly maxFileSize: number | undefined;
  /** `framework.http.limits.max-parts`. */
  readonly maxParts: number;
  /** `framework.http.limits.max-fields`: non-file parts. */
  readonly maxFields: number;
  /** `framework.http.limits.max-header-size`: the header block of one part. */
  readonly maxHeaderSize: number;
}

/** The configuration's defaults, for callers without a configuration. */
export const DEFAULT_MULTIPART_SETTINGS: MultipartSettings = Object.freeze({
  uploadsDirectory: 'uploads',
  deleteUploadedFilesOnEnd: true,
  maxBodySize: 10 * 1024 * 1024,
  maxFormAttributeSize: 2048,
  maxFileSize: undefined,
  maxParts: 1000,
  maxFields: 1000,
  maxHeaderSize: 20 * 1024,
});

/** Reads the settings through a configuration getter (`config.get`). */
export function multipartSettings(get: (key: string) => unknown): MultipartSettings {
  const number = (key: string, fallback: number | undefined) => {
    const value = get(key);
    return typeof value === 'number' ? value : fallback;
  };
  const d = DEFAULT_MULTIPART_SETTINGS;
  const directory = get('framework.http.body.uploads-directory');
  const deleteOnEnd = get('framework.http.body.delete-uploaded-files-on-end');
  return Object.freeze({
    uploadsDirectory: typeof directory === 'string' ? directory : d.uploadsDirectory,
    deleteUploadedFilesOnEnd: typeof deleteOnEnd === 'boolean' ? deleteOnEnd : d.deleteUploadedFilesOnEnd,
    maxBodySize: number('framework.http.limits.max-body-size', d.maxBodySize)!,
    maxFormAttributeSize: number('framework.http.limits.max-form-attribute-size', d.maxFormAttributeSize)!,
    maxFileSize: number('framework.http.limits.max-multipart-file-size', undefined),
    maxParts: number('framework.http.limits.max-parts', d.maxParts)!,
    maxFields: number('framework.http.limits.max-fields', d.maxFields)!,
    maxHeaderSize: number('framework.http.limits.max-header-size', d.maxHeaderSize)!,
  });
}
