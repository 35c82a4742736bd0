import { resolveType } from '../../lib/convert/convert';
import type { ParamConverterProvider } from '../../lib/convert/param-converter';

class Both {
  constructor(
    readonly text: string,
    readonly via: string = 'ctor',
  ) {}
  static valueOf(text: string) {
    return new Both(text, 'valueOf');
  }
}

class Statics {
  constructor(
    readonly text: string,
    readonly via: string,
  ) {}
  static valueOf(text: string) {
    return new Statics(text, 'valueOf');
  }
  static fromString(text: string) {
    return new Statics(text, 'fromString');
  }
}

class FromStringOnly {
  constructor(
    readonly text: string,
    readonly via: string,
  ) {}
  static fromString(text: string) {
    return new FromStringOnly(text, 'fromString');
  }
}

class Opaque {
  constructor(
    readonly a: number,
    readonly b: number,
  ) {}
}

enum Color {
  Red = 'red',
  Green = 'green',
}

const Level = { Low: 1, High: 2, fromString: (text: string) => (text === 'max' ? 2 : 1) };

describe('resolveType', () => {
  it('asks a ParamConverterProvider before every built-in rule', () => {
    const provider: ParamConverterProvider = {
      getConverter: (type) => (type === Number ? { fromString: (text) => text.length } : undefined),
    };
    expect(resolveType(undefined, Number, { providers: [provider] })!.convert('abc')).toBe(3);
    expect(resolveType(undefined, Boolean, { providers: [provider] })!.convert('true')).toBe(true);
  });

  it('converts the primitives and refuses bad text', () => {
    expect(resolveType(undefined, Number)!.convert('4.5')).toBe(4.5);
    expect(resolveType(undefined, BigInt)!.convert('12345678901234567890')).toBe(12345678901234567890n);
    expect(resolveType(undefined, Boolean)!.convert('TRUE')).toBe(true);
    expect(() => resolveType(undefined, Number)!.convert('ten')).toThrow('is not a number');
    expect(() => resolveType(undefined, Number)!.convert('')).toThrow();
    expect(() => resolveType(undefined, Number)!.convert(' \t ')).toThrow('is not a number');
    expect(resolveType(undefined, Number)!.convert(' 0 ')).toBe(0);
    expect(resolveType(undefined, Number)!.convert(' 42\n')).toBe(42);
    // Past 2^53 digits name a neighbour: refused rather than read as another id.
    expect(resolveType(undefined, Number)!.convert('9007199254740991')).toBe(9007199254740991);
    for (const text of [
      '9007199254740993',
      ' -9007199254740993 ',
      '0x20000000000001',
      '9007199254740993.0',
      '1' + '0'.repeat(400),
    ])
      expect(() => resolveType(undefined, Number)!.convert(text)).toThrow('past the integers a number holds exactly');
    // An integer a number holds exactly is read, however large; a fraction or an exponent as the nearest double.
    expect(resolveType(undefined, Number)!.convert(' -9007199254740992 ')).toBe(-9007199254740992);
    expect(resolveType(undefined, Number)!.convert('18446744073709551616')).toBe(2 ** 64);
    expect(resolveType(undefined, Number)!.convert('1e300')).toBe(1e300);
    expect(resolveType(undefined, Number)!.convert('0.1')).toBe(0.1);
    expect(resolveType(undefined, Number)!.convert('-Infinity')).toBe(-Infinity);
    expect(() => resolveType(undefined, Number)!.convert('1e400')).toThrow('"1e400" is past the largest number');
    expect(() => resolveType(undefined, Boolean)!.convert('yes')).toThrow('is not a boolean');
  });

  it('prefers a one-string constructor over static methods', () => {
    expect(resolveType(undefined, Both)!.convert('x')).toEqual(new Both('x', 'ctor'));
  });

  it('prefers valueOf over fromString, and falls back to fromString', () => {
    expect((resolveType(undefined, Statics)!.convert('x') as Statics).via).toBe('valueOf');
    expect((resolveType(undefined, FromStringOnly)!.convert('x') as FromStringOnly).via).toBe('fromString');
  });

  it('returns undefined for a class it cannot make from a string', () => {
    expect(resolveType(undefined, Opaque)).toBeUndefined();
  });

  it('converts enums given as objects by value or name, and uses a merged fromString', () => {
    const color = resolveType(Color, undefined)!;
    expect(color.convert('red')).toBe(Color.Red);
    expect(color.convert('Green')).toBe(Color.Green);
    expect(() => color.convert('blue')).toThrow('is not one of');
    expect(resolveType(Level, undefined)!.convert('max')).toBe(2);
  });

  it('parses ISO dates and @DateFormat patterns through date-fns', () => {
    const iso = resolveType(undefined, Date)!.convert('1984-08-08') as Date;
    expect([iso.getFullYear(), iso.getMonth(), iso.getDate()]).toEqual([1984, 7, 8]);
    expect((resolveType(undefined, Date)!.convert('1984-08-08T01:02:03Z') as Date).toISOString()).toBe(
      '1984-08-08T01:02:03.000Z',
    );
    const patterned = resolveType(undefined, Date, { dateFormat: 'dd-MM-yyyy' })!.convert('08-08-1984') as Date;
    expect([patterned.getFullYear(), patterned.getMonth(), patterned.getDate()]).toEqual([1984, 7, 8]);
    expect(() => resolveType(undefined, Date, { dateFormat: 'dd-MM-yyyy' })!.convert('1984-08-08')).toThrow(
      'does not match',
    );
    expect(() => resolveType(undefined, Date)!.convert('yesterday')).toThrow('ISO-8601');
  });

  it('resolves collections: arrays, sets and sorted sets of an element type', () => {
    expect(resolveType([Number], undefined)).toMatchObject({ collection: 'array', name: 'array<number>' });
    expect(resolveType(undefined, Set)).toMatchObject({ collection: 'set' });
    expect(resolveType(undefined, Array)).toMatchObject({ collection: 'array', name: 'array<string>' });
    expect(resolveType(Number, undefined, { collection: 'sorted-set' })).toMatchObject({ collection: 'sorted-set' });
  });
});
