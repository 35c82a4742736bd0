/** The raw strings of a named parameter, by where it comes from. */
import { parseCookieHeader } from '../http/cookies';
import type { ParamKind } from '../metadata/store';
import type { RequestContext } from '../context/request-context';
import type { PathTemplate } from '../routing/path-template';
import type { BodySettings } from '../multipart/body-settings';
import { readForm } from './read-form';
import { multipartTexts } from '../multipart/read-part';

/** `undefined` when not sent at all. */
export type RawValues = readonly string[] | undefined;

export type RawReader = (ctx: RequestContext) => RawValues | Promise<RawValues>;

/** Once per parameter, so that the request path does no dispatch on the kind. */
export function rawReader(kind: ParamKind, name: string, settings: BodySettings, template: PathTemplate): RawReader {
  switch (kind) {
    case 'path':
      return pathValueReader(template, name);
    case 'query':
      return (ctx) => ctx.queryValues(name);
    case 'header': {
      const lower = name.toLowerCase();
      return (ctx) => listOf(ctx.headerValue(lower));
    }
    case 'cookie':
      return (ctx) => listOf(parseCookieHeader(ctx.headers.get('cookie')).get(name));
    case 'matrix':
      return (ctx) => ctx.matrix.get(name);
    case 'form':
      return (ctx) =>
        multipartTexts(ctx, settings.multipart, name) ??
        readForm(ctx, settings).then((form) => {
          const values = form.getAll(name);
          return values.length ? values : undefined;
        });
    default:
      throw new Error(`unsupported parameter kind ${kind}`);
  }
}

/** By the capture group of the last occurrence, so that a request builds no params object. */
function pathValueReader(template: PathTemplate, name: string): RawReader {
  const group = template.captures.findLast((capture) => capture.name === name)?.group;
  if (group === undefined) return () => undefined;
  // The route matched may be a template differing from this one in spacing only: its groups are numbered alike.
  return (ctx) => listOf(ctx.route?.valueAt(group));
}

function listOf(value: string | null | undefined): RawValues {
  return value === null || value === undefined ? undefined : [value];
}
