/** The limits and storage settings multipart parsing runs with, with finite defaults (busboy's are unlimited). */
import type { Config } from '../config';
import { UploadBudget } from './upload-budget';

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
  /** `framework.http.limits.max-uploads-size`: one budget per application, shared by its requests. */
  readonly uploads: UploadBudget;
  /** `framework.http.limits.max-parts`. */
  readonly maxParts: number;
  /** `framework.http.limits.max-fields`: non-file parts. */
  readonly maxFields: number;
  /** `framework.http.limits.max-header-size`: the header block of one part. */
  readonly maxHeaderSize: number;
}

export function multipartSettings(config: Config): MultipartSettings {
  return Object.freeze({
    uploadsDirectory: config.get('framework.http.body.uploads-directory'),
    deleteUploadedFilesOnEnd: config.get('framework.http.body.delete-uploaded-files-on-end'),
    maxBodySize: config.get('framework.http.limits.max-body-size'),
    maxFormAttributeSize: config.get('framework.http.limits.max-form-attribute-size'),
    maxFileSize: config.get('framework.http.limits.max-multipart-file-size'),
    uploads: new UploadBudget(config.get('framework.http.limits.max-uploads-size')),
    maxParts: config.get('framework.http.limits.max-parts'),
    maxFields: config.get('framework.http.limits.max-fields'),
    maxHeaderSize: config.get('framework.http.limits.max-header-size'),
  });
}
