import { GET, JsonProperty, RestLinkId, RestQuery } from '../../lib';

/** How a compiler without experimentalDecorators calls a decorator: the value (none for a field), then a context. */
type StandardCall = (value: unknown, context: { kind: string; name: string | symbol }) => unknown;
const standard = (decorator: unknown) => decorator as StandardCall;

describe('decorators compiled as standard (TC39) decorators', () => {
  it('fail at once on a method, naming it and the compiler options to set', () => {
    const list = function list() {
      return [];
    };
    expect(() => standard(GET)(list, { kind: 'method', name: 'list' })).toThrow(
      'the method list was decorated as a standard (TC39) decorator: set "experimentalDecorators": true and "emitDecoratorMetadata": true',
    );
  });

  it.each([
    ['@RestQuery()', RestQuery()],
    ['@JsonProperty()', JsonProperty()],
    ['@RestLinkId()', RestLinkId()],
  ])('fail at once on a field with %s, naming it', (_name, decorator) => {
    expect(() => standard(decorator)(undefined, { kind: 'field', name: 'page' })).toThrow(
      'the field page was decorated as a standard (TC39) decorator',
    );
  });
});
