/** Serves the OpenAPI document at its path, for requests no resource matched: YAML by default, JSON on request. */
import { ResponseContext } from '../context/response-context';
import type { RequestContext } from '../context/request-context';
import type { UnroutedAnswer } from '../context/settle';
import { readOnly } from '../static/static-files';
import type { JsonSchema } from './type-schema';

/** Whether the client asked for JSON: `?format=json` (Quarkus's convention) or an `Accept` naming JSON but not YAML. */
function wantsJson(ctx: RequestContext): boolean {
  if (ctx.query.get('format')?.toLowerCase() === 'json') return true;
  const accept = ctx.header('accept') ?? '';
  return /application\/json/i.test(accept) && !/yaml/i.test(accept);
}

/** The document is made on first use, then kept as text in both forms. */
export function openApiAnswer(path: string, document: () => JsonSchema): UnroutedAnswer {
  let yaml: string | undefined;
  let json: string | undefined;
  return (ctx) => {
    if (ctx.rawPath !== path) return undefined;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.response = readOnly(ctx.method, path);
      return Promise.resolve(ctx);
    }
    const asJson = wantsJson(ctx);
    const text = asJson
      ? (json ??= JSON.stringify(document(), null, 2))
      : (yaml ??= (require('yaml') as typeof import('yaml')).stringify(document(), { aliasDuplicateObjects: false }));
    const type = asJson ? 'application/json;charset=UTF-8' : 'application/yaml;charset=UTF-8';
    ctx.response = new ResponseContext(200, text, undefined, type);
    // The form follows Accept: a shared cache must not hand the YAML to a client that asked for JSON (RFC 9110 §12.5.5).
    ctx.response.headers.set('vary', 'Accept');
    return Promise.resolve(ctx);
  };
}
