/** What the build step knows of an endpoint that an API description needs: its parameters, body, results and streams. */
import type { ZodType } from 'zod';
import type { APIResponseOptions } from '../decorators/openapi';
import type { AccessRule } from '../decorators/security';
import type { ParamKind, Tags } from '../metadata/store';
import type { EndpointInfo } from '../context/request-context';

export interface ParamFact {
  readonly kind: ParamKind;
  /** On the wire: the explicit one, else the parameter's own. */
  readonly name: string | undefined;
  /** The explicit `{ type }`, else the metadata's; `undefined` when unknown. */
  readonly type: unknown;
  readonly schema: ZodType | undefined;
  readonly required: boolean | undefined;
  readonly defaultValue: string | undefined;
  /** A body of many items (a `Multi` parameter): `type` and `schema` describe each item. */
  readonly stream?: boolean;
  readonly partType?: string;
}

/** Read once at build time by the OpenAPI document, never per request. */
export interface EndpointFacts {
  readonly info: EndpointInfo;
  /** As declared, regular expressions included (`/items/{id: [0-9]+}`). */
  readonly template: string;
  readonly params: readonly ParamFact[];
  readonly returnType: unknown;
  /** Whether every item of the result is written (a Multi, or streaming media types only). */
  readonly streams: boolean;
  readonly status: number | undefined;
  readonly methodTags: Tags;
  readonly classTags: Tags;
  /** The method's rule, else its class's. */
  readonly access?: AccessRule;
  /** The statuses the features on this endpoint can answer with (401/403, 429...). */
  readonly answers?: readonly number[];
  /** What the exception mappers in reach of the method document with `@APIResponse`. */
  readonly errorAnswers?: readonly APIResponseOptions[];
}
