/** The limits and storage settings multipart parsing runs with, with finite defaults (busboy's are unlimited). */
import type { Config } from '../config';
import { UploadBudget } from '../body/upload-budget';

export type MultipartSettings = ReturnType<typeof multipartSettings>;

export function multipartSettings(config: Config) {
  return Object.freeze({
    uploadsDirectory: config.get('framework.http.body.uploads-directory'),
    deleteUploadedFilesOnEnd: config.get('framework.http.body.delete-uploaded-files-on-end'),
    /** The whole request body, and so every file part. */
    maxBodySize: config.get('framework.http.limits.max-body-size'),
    /** Every part held in memory (non-file parts). */
    maxFormAttributeSize: config.get('framework.http.limits.max-form-attribute-size'),
    /** Every file part (`undefined`: max-body-size only). */
    maxFileSize: config.get('framework.http.limits.max-multipart-file-size'),
    /** One budget per application, shared by its requests. */
    uploads: new UploadBudget(config.get('framework.http.limits.max-uploads-size')),
    maxParts: config.get('framework.http.limits.max-parts'),
    /** Non-file parts. */
    maxFields: config.get('framework.http.limits.max-fields'),
    /** The header block of one part. */
    maxHeaderSize: config.get('framework.http.limits.max-header-size'),
  });
}
