/** What the build step knows of an endpoint that an API description needs: its parameters, body, results and streams. */
import type { ZodType } from 'zod';
import type { APIResponseOptions } from '../decorators/openapi';
import type { AccessRule } from '../decorators/security';
import type { ParamKind, Tags } from '../metadata/store';
import type { EndpointInfo } from '../context/request-context';

/** One parameter as the build step resolved it. */
export interface ParamFact {
  readonly kind: ParamKind;
  /** The name on the wire (the explicit one, else the parameter's own). */
  readonly name: string | undefined;
  /** The explicit `{ type }`, else the type decorator metadata recorded; `undefined` when unknown. */
  readonly type: unknown;
  readonly schema: ZodType | undefined;
  readonly required: boolean | undefined;
  /** `@DefaultValue`, as written. */
  readonly defaultValue: string | undefined;
  /** A body of many items (a `Multi` parameter): `type` and `schema` describe each item. */
  readonly stream?: boolean;
  /** `@PartType`: the media type a multipart part is read as. */
  readonly partType?: string;
}

/** An endpoint, described: read once at build time by the OpenAPI document, never per request. */
export interface EndpointFacts {
  readonly info: EndpointInfo;
  /** The template as declared, regular expressions included (`/items/{id: [0-9]+}`). */
  readonly template: string;
  readonly params: readonly ParamFact[];
  /** `design:returntype`, when metadata was emitted. */
  readonly returnType: unknown;
  /** Whether every item of the result is written (a Multi, or streaming media types only). */
  readonly streams: boolean;
  /** `@ResponseStatus`. */
  readonly status: number | undefined;
  /** The method's and its class's decorator data (`@Operation`, `@Tag`, `@APIResponse`...). */
  readonly methodTags: Tags;
  readonly classTags: Tags;
  /** `@Authenticated`, `@RolesAllowed`, `@PermitAll` or `@DenyAll` of the method, else of its class. */
  readonly access?: AccessRule;
  /** The statuses the features on this endpoint can answer with (security's 401/403, rate limits' 429...). */
  readonly answers?: readonly number[];
  /** The answers the exception mappers in reach of the method document with `@APIResponse`. */
  readonly errorAnswers?: readonly APIResponseOptions[];
}
