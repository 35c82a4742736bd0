import { GET, Path, RestQuery } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('names')
class Names {
  // Every parameter is named by its source alone: defaults holding commas, brackets and quotes must not shift a name
  // onto another parameter. (Comments are skipped too, but the compiler drops those next to decorated parameters.)
  @GET list(
    @RestQuery() sort: string = 'name,(asc)',
    @RestQuery() page: number = [1, 2].length - 1,
    @RestQuery() label: string = `a, "b", 'c' \` (d`,
    @RestQuery() size: number = { rows: 10, 'x,y': 0 }.rows,
  ) {
    return { sort, page, label, size };
  }
}

const app = buildApp([Names]);

describe('parameter names read from the source', () => {
  it('skip default values holding commas, brackets and quotes', async () => {
    expect(await (await call(app, '/names?page=3&size=20')).json()).toEqual({
      sort: 'name,(asc)',
      page: 3,
      label: 'a, "b", \'c\' ` (d',
      size: 20,
    });
    expect(await (await call(app, '/names?sort=z&label=l')).json()).toEqual({
      sort: 'z',
      page: 1,
      label: 'l',
      size: 10,
    });
  });
});
