/** The entry points the parameter compiler calls for `@RestForm` parameters and `MultipartFormDataInput` bodies. */
import type { BodySettings } from './body-settings';
import type { RequestContext } from '../context/request-context';
import { MultipartFormDataInput } from './multipart-form-data-input';
import type { MultipartSettings } from './multipart-settings';
import { partTarget } from './part-target';
import { compilePartReader, isMultipart, MULTIPART_BUILTINS, MULTIPART_FEATURE, readMultipart } from './read-part';
import { needNodeBuiltins } from '../runtime/node-builtins';

/**
 * The reader of a `@RestForm` parameter read from a part rather than converted from text (files, paths, handles,
 * entities); `undefined` for text values, which {@link multipartTexts} serves. A request not multipart gives none.
 */
export function compileMultipartArgument(
  name: string,
  typeHint: unknown,
  designType: unknown,
  partType: string | undefined,
  settings: BodySettings,
): ((ctx: RequestContext) => Promise<unknown>) | undefined {
  const target = partTarget(typeHint, designType, partType);
  if (target.kind === 'text') return undefined;
  needNodeBuiltins(MULTIPART_FEATURE, ...MULTIPART_BUILTINS);
  const read = compilePartReader(name, target, settings.multipart, settings);
  const none = target.list ? () => Promise.resolve([]) : () => Promise.resolve(undefined);
  return (ctx) => (isMultipart(ctx) ? read(ctx) : none());
}

/** The reader of a `MultipartFormDataInput` body parameter (no parts when the request is not multipart). */
export function compileMultipartInputReader(
  settings: MultipartSettings,
): (ctx: RequestContext) => Promise<MultipartFormDataInput> {
  needNodeBuiltins(MULTIPART_FEATURE, ...MULTIPART_BUILTINS);
  return async (ctx) => new MultipartFormDataInput(isMultipart(ctx) ? await readMultipart(ctx, settings) : []);
}

/**
 * The reader of a body parameter whose class has `@RestForm` properties: filled from a form, else read by `body`.
 *
 * @example
 * class Upload { @RestForm() title = ''; @RestForm() file?: FileUpload; }
 * @POST upload(upload: Upload) { return upload.title; }
 */
export function compileContainerBodyReader(
  form: (ctx: RequestContext) => unknown,
  body: (ctx: RequestContext) => Promise<unknown>,
): (ctx: RequestContext) => unknown {
  return (ctx) => (isMultipart(ctx) || isUrlEncodedForm(ctx) ? form(ctx) : body(ctx));
}

function isUrlEncodedForm(ctx: RequestContext): boolean {
  return /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(ctx.headers.get('content-type') ?? '');
}
