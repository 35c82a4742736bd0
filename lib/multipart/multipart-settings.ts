/** The limits and storage settings multipart parsing runs with, with finite defaults (busboy's are unlimited). */
import type { Config } from '../config';
import { UploadBudget } from '../body/upload-budget';

export interface MultipartSettings {
  readonly uploadsDirectory: string;
  readonly deleteUploadedFilesOnEnd: boolean;
  /** The whole request body, and so every file part. */
  readonly maxBodySize: number;
  /** Every part held in memory (non-file parts). */
  readonly maxFormAttributeSize: number;
  /** Every file part (`undefined`: max-body-size only). */
  readonly maxFileSize: number | undefined;
  /** One budget per application, shared by its requests. */
  readonly uploads: UploadBudget;
  readonly maxParts: number;
  /** Non-file parts. */
  readonly maxFields: number;
  /** The header block of one part. */
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
