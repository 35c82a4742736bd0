// A numeric TypeScript enum maps its names to numbers and its numbers back to names (`Level[-1] === 'Below'`): the
// document lists the members' values only, the ones the wire converts a parameter to, whatever the numbers look like.
import { GET, Path, Produces, RestQuery } from '../../lib';
import { buildApp, call } from '../support/app';

enum Level {
  Below = -1,
  Ground = 0,
  Half = 2.5,
  Top = 7,
}

enum Mixed {
  Off = 0,
  On = 'on',
}

@Path('levels')
class LevelResource {
  @GET
  @Produces('application/json')
  level(@RestQuery({ type: Level }) level: Level, @RestQuery({ type: Mixed }) mixed: Mixed): unknown {
    return { level, mixed };
  }
}

const app = buildApp([LevelResource]);
const parameters = (
  app.openapi() as { paths: Record<string, { get: { parameters: { name: string; schema: unknown }[] } }> }
).paths['/levels']!.get.parameters;
const schemaOf = (name: string) => parameters.find((parameter) => parameter.name === name)!.schema;

describe('an enum parameter in the OpenAPI document', () => {
  it("lists a numeric enum's values, negative and fractional ones too, and none of its reverse names", () => {
    expect(schemaOf('level')).toEqual({ enum: [-1, 0, 2.5, 7] });
    expect(schemaOf('mixed')).toEqual({ enum: [0, 'on'] });
  });

  it('names only values the server takes as they are', async () => {
    const documented = (schemaOf('level') as { enum: unknown[] }).enum;
    const answers = await Promise.all(
      documented.map(async (value) => (await call(app, `/levels?level=${String(value)}`)).json()),
    );
    expect(answers.map((answer) => (answer as { level: unknown }).level)).toEqual(documented);
  });
});
