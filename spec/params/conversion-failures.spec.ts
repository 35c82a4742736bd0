import {
  BeanParam,
  DefinitionError,
  GET,
  GoneException,
  Path,
  Provider,
  RestHeader,
  RestPath,
  RestQuery,
  Separator,
  type ParamConverterProvider,
} from '../../lib';
import { buildApp, call } from '../support/app';

/** An ISBN-13: its constructor refuses any other text. */
class Isbn {
  readonly digits: string;
  constructor(text: string) {
    if (!/^\d{13}$/.test(text)) throw new Error('an ISBN has 13 digits');
    this.digits = text;
  }
}

/** A code whose factory answers for itself: a retired code is gone. */
class Code {
  text = '';
  static valueOf(text: string): Code {
    if (text === 'retired') throw new GoneException('this code was retired');
    return Object.assign(new Code(), { text });
  }
}

class Celsius {
  constructor(readonly degrees: number) {}
}

@Provider()
class CelsiusConverters implements ParamConverterProvider {
  getConverter(type: Function) {
    if (type !== Celsius) return undefined;
    return {
      fromString: (text: string) => {
        if (!text.endsWith('C')) throw new Error('a temperature ends with C');
        return new Celsius(Number(text.slice(0, -1)));
      },
    };
  }
}

enum Level {
  Low = 1,
  High = 2,
  Below = -1,
}

@Path('conv')
class Conversions {
  @GET @Path('level') level(@RestQuery({ type: Level }) level: Level) {
    return { level };
  }
  @GET @Path('flag') flag(@RestQuery() on: boolean) {
    return { on };
  }
  @GET @Path('big') big(@RestQuery() n: bigint) {
    return String(n);
  }
  @GET @Path('items/{id}') item(@RestPath() id: number) {
    return { id };
  }
  @GET @Path('isbn') isbnQuery(@RestQuery() isbn: Isbn) {
    return isbn.digits;
  }
  @GET @Path('isbn-header') isbnHeader(@RestHeader('x-isbn') isbn: Isbn) {
    return isbn.digits;
  }
  @GET @Path('code') code(@RestQuery() code: Code) {
    return code.text;
  }
  @GET @Path('temperature') temperature(@RestQuery() t: Celsius) {
    return { degrees: t.degrees };
  }
  @GET @Path('first') first(@RestQuery() @Separator(',') name: string) {
    return name;
  }
}

const app = buildApp([Conversions, CelsiusConverters]);

async function problem(path: string): Promise<[number, string, string]> {
  const response = await call(app, path);
  const body = (await response.json()) as { code: string; detail: string };
  return [response.status, body.code, body.detail];
}

describe('parameter conversion', () => {
  it('reads a boolean parameter false as false', async () => {
    expect(await (await call(app, '/conv/flag?on=false')).json()).toEqual({ on: false });
    expect(await (await call(app, '/conv/flag?on=FALSE')).json()).toEqual({ on: false });
  });

  it('answers 404 for a bigint query parameter that is not an integer', async () => {
    expect(await (await call(app, '/conv/big?n=12345678901234567890')).text()).toBe('12345678901234567890');
    expect(await problem('/conv/big?n=1.5')).toEqual([
      404,
      'RXREST_PARAMETER_NOT_FOUND',
      'Invalid query parameter "n": "1.5" is not an integer',
    ]);
  });

  it('answers 404 for a number parameter written past the integers a number holds exactly, not its neighbour', async () => {
    expect(await (await call(app, '/conv/items/9007199254740991')).json()).toEqual({ id: 9007199254740991 });
    expect(await problem('/conv/items/9007199254740993')).toEqual([
      404,
      'RXREST_PARAMETER_NOT_FOUND',
      'Invalid path parameter "id": "9007199254740993" is past the integers a number holds exactly (use bigint)',
    ]);
  });

  it("answers 404 with the reason a class's constructor refused the text for, 400 in a header", async () => {
    expect(await (await call(app, '/conv/isbn?isbn=9780306406157')).text()).toBe('9780306406157');
    expect(await problem('/conv/isbn?isbn=12')).toEqual([
      404,
      'RXREST_PARAMETER_NOT_FOUND',
      'Invalid query parameter "isbn": "12" is not a valid Isbn: an ISBN has 13 digits',
    ]);
    const header = await call(app, '/conv/isbn-header', { headers: { 'x-isbn': '12' } });
    expect([header.status, await header.json()]).toEqual([
      400,
      expect.objectContaining({
        code: 'RXREST_INVALID_PARAMETER',
        detail: 'Invalid header parameter "x-isbn": "12" is not a valid Isbn: an ISBN has 13 digits',
      }),
    ]);
  });

  it('keeps the status of an HTTP exception a factory throws', async () => {
    expect(await (await call(app, '/conv/code?code=a1')).text()).toBe('a1');
    const gone = await call(app, '/conv/code?code=retired');
    expect([gone.status, await gone.text()]).toEqual([410, 'this code was retired']);
  });

  it("answers 404 with the reason a ParamConverterProvider's converter refused the text for", async () => {
    expect(await (await call(app, '/conv/temperature?t=21C')).json()).toEqual({ degrees: 21 });
    expect(await problem('/conv/temperature?t=70F')).toEqual([
      404,
      'RXREST_PARAMETER_NOT_FOUND',
      'Invalid query parameter "t": a temperature ends with C',
    ]);
  });

  it('reads a numeric enum by name or value, negative ones too, and lists only its values when refusing one', async () => {
    expect(await (await call(app, '/conv/level?level=High')).json()).toEqual({ level: 2 });
    expect(await (await call(app, '/conv/level?level=1')).json()).toEqual({ level: 1 });
    expect(await (await call(app, '/conv/level?level=Below')).json()).toEqual({ level: -1 });
    expect(await (await call(app, '/conv/level?level=-1')).json()).toEqual({ level: -1 });
    expect(await problem('/conv/level?level=Medium')).toEqual([
      404,
      'RXREST_PARAMETER_NOT_FOUND',
      'Invalid query parameter "level": "Medium" is not one of 1, 2, -1',
    ]);
  });

  it('gives a single-valued parameter with @Separator its first part', async () => {
    expect(await (await call(app, '/conv/first?name=ada,grace')).text()).toBe('ada');
  });
});

describe('@BeanParam build errors', () => {
  function buildError(resource: Function): string {
    try {
      buildApp([resource]);
    } catch (error) {
      if (error instanceof DefinitionError) return error.message;
      throw error;
    }
    throw new Error('the build succeeded');
  }

  it('refuses a bean class whose constructor takes parameters', () => {
    class Paging {
      constructor(readonly size: number) {}
      @RestQuery() page = 1;
    }
    @Path('beans')
    class Beans {
      @GET list(@BeanParam() paging: Paging) {
        return paging.page;
      }
    }
    expect(buildError(Beans)).toMatch(
      /Beans#list.*the @BeanParam class Paging needs a constructor without parameters/s,
    );
  });

  it('refuses a bean class with no decorated property', () => {
    class Empty {
      page = 1;
    }
    @Path('beans')
    class Beans {
      @GET list(@BeanParam() empty: Empty) {
        return empty.page;
      }
    }
    expect(buildError(Beans)).toMatch(/Beans#list.*the @BeanParam class Empty has no decorated properties/s);
  });

  it('refuses a bean class that contains itself', () => {
    class Tree {
      @RestQuery() name = '';
      @BeanParam({ type: Tree }) child?: Tree;
    }
    @Path('beans')
    class Beans {
      @GET list(@BeanParam() tree: Tree) {
        return tree.name;
      }
    }
    expect(buildError(Beans)).toMatch(/Beans#list.*Tree\.child \(Tree\): the @BeanParam class Tree contains itself/s);
  });
});
