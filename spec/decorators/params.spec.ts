import { GET, Path, PathParam, RestForm, RestPath, RestQuery } from '../../lib';

describe('parameter decorator factories', () => {
  it('refuse to be used uncalled, naming the class, the method and the fix', () => {
    expect(() => {
      @Path('items')
      class Items {
        // @ts-expect-error tsc reports TS1329 here; transpile-only tools (esbuild, swc, ts-jest) emit it as it is
        @GET one(@RestPath id: string): string {
          return id;
        }
      }
      return Items;
    }).toThrow("@RestPath on Items.one must be called: write @RestPath() or @RestPath('name')");
  });

  it('refuse it for the specification names and static methods too', () => {
    expect(() => {
      class Statics {
        // @ts-expect-error as above
        static find(@PathParam id: string): string {
          return id;
        }
      }
      return Statics;
    }).toThrow('@PathParam on Statics.find must be called');
  });

  it('accept names, options and the FileUpload.ALL name as before', () => {
    expect(() => {
      class Fine {
        @GET one(
          @RestPath() id: string,
          @RestQuery('q', { type: Number }) q: number,
          @RestForm({ type: String }) form: string,
        ): string {
          return `${id}${q}${form}`;
        }
      }
      return Fine;
    }).not.toThrow();
  });
});
