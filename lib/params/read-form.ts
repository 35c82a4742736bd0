/** The one place request forms are read (`@RestForm`, form maps); multipart support branches here. */
import { readRequestText } from '../body/read-body';
import type { RequestContext } from '../context/request-context';
import type { BodySettings } from '../multipart/body-settings';
import { ContextKey } from '../context/context-key';

const FORM = new ContextKey<Promise<URLSearchParams>>('form');

/**
 * The fields of an `application/x-www-form-urlencoded` request, read once per request and shared by
 * every form parameter; other content types give an empty form.
 */
export function readForm(ctx: RequestContext, settings: BodySettings): Promise<URLSearchParams> {
  // The promise is cached, not its result: form parameters are read concurrently (bean properties).
  const cached = ctx.get(FORM);
  if (cached) return cached;
  const type = ctx.headers.get('content-type') ?? '';
  const form = type.toLowerCase().startsWith('application/x-www-form-urlencoded')
    ? readRequestText(ctx, settings.maxBodySize).then((text) => new URLSearchParams(text))
    : Promise.resolve(new URLSearchParams());
  ctx.set(FORM, form);
  return form;
}
