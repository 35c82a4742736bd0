import {
  Application,
  ConstrainedTo,
  DefinitionError,
  GET,
  Path,
  Provider,
  RestResponse,
  ServerExceptionMapper,
} from '../../lib';
import { buildApp, call } from '../support/app';

class Refused extends Error {}

@Path('counter')
class Counter {
  count = 0;
  constructor(readonly start: number) {
    this.count = start;
  }
  @GET next(): string {
    return String(++this.count);
  }
}

@Path('refuse')
class Refusing {
  @GET refuse(): string {
    throw new Refused('no');
  }
}

function buildError(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('the build succeeded');
}

describe('discover', () => {
  it('refuses a listed class whose constructor takes parameters, naming the class', () => {
    const error = buildError(() => buildApp([Counter]));
    expect(error.message).toMatch(/Counter.*a resource or provider class needs a constructor without parameters/);
  });

  it("serves an Application's singletons as they are, state included", async () => {
    const counter = new Counter(41);
    class Singletons extends Application {
      override getClasses() {
        return [];
      }
      override getSingletons() {
        return [counter];
      }
    }
    const app = buildApp([], {}, { application: new Singletons() });
    expect(await (await call(app, '/counter')).text()).toBe('42');
    expect(await (await call(app, '/counter')).text()).toBe('43');
    expect(counter.count).toBe(43);
  });

  it('mounts a class listed twice once', async () => {
    @Path('once')
    class Once {
      @GET get(): string {
        return 'once';
      }
    }
    expect(await (await call(buildApp([Once, Once]), '/once')).text()).toBe('once');
  });

  it('ignores a client-only exception mapper, whichever side of @Provider @ConstrainedTo is written', async () => {
    @Provider({ exception: Refused })
    @ConstrainedTo('client')
    class Below {
      toResponse() {
        return RestResponse.status(418, 'below');
      }
    }
    @ConstrainedTo('client')
    @Provider({ exception: Refused })
    class Above {
      toResponse() {
        return RestResponse.status(418, 'above');
      }
    }
    expect((await call(buildApp([Refusing, Below]), '/refuse')).status).toBe(500);
    expect((await call(buildApp([Refusing, Above]), '/refuse')).status).toBe(500);
  });
});

describe('compileMappers', () => {
  it('refuses an exception mapper method that names no exception type', () => {
    class Untyped {
      @ServerExceptionMapper() map(error: unknown) {
        return RestResponse.status(400, String(error));
      }
    }
    const error = buildError(() => buildApp([Refusing, Untyped]));
    expect(error.message).toMatch(/Untyped#map.*an exception mapper needs the exception types/);
  });

  it('refuses an ExceptionMapper provider whose exception type cannot be known', () => {
    @Provider()
    class Nameless {
      toResponse(error: unknown) {
        return RestResponse.status(400, String(error));
      }
    }
    const error = buildError(() => buildApp([Refusing, Nameless]));
    expect(error.message).toMatch(/Nameless.*must name its exception type: @Provider\(\{ exception: MyError \}\)/);
  });
});
