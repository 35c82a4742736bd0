/** Multipart as a feature: form parts read as a stream to disk, `MultipartFormDataOutput` written. */
import type { EntityWriter } from '../body/entity-writers';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { multipartSettings, type MultipartSettings } from './multipart-settings';
import { multipartWriter } from './multipart-writer';

export const MULTIPART = new BuildKey<{ readonly settings: MultipartSettings; readonly writer: EntityWriter }>(
  'multipart',
);

export const multipartFeature = defineFeature({
  name: 'multipart',
  settings: ['framework.http.limits.', 'framework.http.body.'],
  phases: ['read', 'write'],
  answers: [
    { status: 400, when: 'a malformed multipart body' },
    { status: 413, when: 'a part, a file or the whole form past its limit' },
    { status: 503, when: 'the uploads in progress of the application hold max-uploads-size on disk' },
  ],
  transports: {
    answer: 'read as a stream, files to disk (deleted at the end unless kept); written as multipart/form-data',
  },
  build(build) {
    build.provide(MULTIPART, { settings: multipartSettings(build.config), writer: multipartWriter });
    return undefined;
  },
});
