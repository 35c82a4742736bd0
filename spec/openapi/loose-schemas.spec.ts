// Schemas that say little: a JSON form part whose class takes any JSON, and an @APIResponse schema that is neither
// zod nor a class (a schema object of another library, reached from JavaScript or through a cast). The document
// must promise no more than the server checks: any value, never a narrower type guessed from the object's shape.
import { z, type ZodType } from 'zod';
import { APIResponse, Consumes, GET, Path, POST, PartType, Produces, RestForm } from '../../lib';
import { buildApp } from '../support/app';

class AnyJson {
  static schema = z.any();
}

/** What a schema object of another library looks like to rxrest: a plain object with fields of its own. */
const foreignSchema = { kind: 'object', shape: 'name' } as unknown as ZodType;

@Path('loose')
class LooseResource {
  @POST
  @Consumes('multipart/form-data')
  @Produces('text/plain')
  upload(@RestForm('meta') @PartType('application/json') meta: AnyJson): string {
    return JSON.stringify(meta);
  }

  @GET
  @Produces('application/json')
  @APIResponse({ status: 200, schema: foreignSchema })
  foreign(): string {
    return '{}';
  }
}

type Json = Record<string, unknown>;
const document = buildApp([LooseResource]).openapi() as { paths: Record<string, Record<string, Json>> };

describe('loose schemas in the OpenAPI document', () => {
  it('documents a JSON part whose class schema takes any JSON as any value, not as an object', () => {
    const body = document.paths['/loose']!['post']!['requestBody'] as { content: Record<string, { schema: Json }> };
    const properties = body.content['multipart/form-data']!.schema['properties'] as Record<string, Json>;
    expect(properties['meta']).toEqual({});
  });

  it('documents an @APIResponse schema that is neither zod nor a class as any value', () => {
    const responses = document.paths['/loose']!['get']!['responses'] as Record<string, { content: Json }>;
    expect(responses['200']!.content['application/json']).toEqual({ schema: {} });
  });
});
