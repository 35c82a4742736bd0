/** The parsed multipart form of a request, parsed once, and the clean-up of its files when the request completes. */
import type { RequestContext } from '../context/request-context';
import { bodySource } from '../body/body-source';
import type { FormValue } from './form-value';
import { DEFAULT_MULTIPART_SETTINGS, type MultipartSettings } from './multipart-settings';
import { parseMultipart } from './parse-multipart';
import { UploadStore } from './upload-store';
import { ContextKey } from '../context/context-key';

const PARSED = new ContextKey<Promise<FormValue[]>>('multipart');

/** Whether the request body is `multipart/form-data` (RFC 7578). */
export function isMultipart(ctx: RequestContext): boolean {
  return /^\s*multipart\/form-data\s*(;|$)/i.test(ctx.headers.get('content-type') ?? '');
}

/**
 * Every part of the request, parsed on first use. The files are deleted once the response has been sent
 * when `deleteUploadedFilesOnEnd` is set, and always when parsing failed (a partial file is never kept).
 */
export function readMultipart(
  ctx: RequestContext,
  settings: MultipartSettings = DEFAULT_MULTIPART_SETTINGS,
): Promise<FormValue[]> {
  const cached = ctx.get(PARSED);
  if (cached) return cached;
  const store = new UploadStore(settings.uploadsDirectory);
  const parsed = parseMultipart(bodySource(ctx), ctx.headers.get('content-type') ?? '', settings, store);
  parsed.catch(() => undefined);
  ctx.set(PARSED, parsed);
  ctx.onComplete(async () => {
    // A response sent before the body was read (an earlier argument failed) stops the upload.
    store.abort();
    const ok = await parsed.then(
      () => true,
      () => false,
    );
    if (!ok || settings.deleteUploadedFilesOnEnd) await store.discard();
  });
  return parsed;
}
