// Whether a response header can be sent as it is (RFC 9110 §5.5, §5.6.2), as a pure function.
import { isSendableField } from '../../lib/http/header-tokens';

describe('isSendableField', () => {
  it('takes token names and values of visible characters, spaces, tabs and obs-text', () => {
    expect(isSendableField('location', 'https://example.com/a?b=c d')).toBe(true);
    expect(isSendableField('x-list', 'a,\tb')).toBe(true);
    expect(isSendableField('x-latin1', 'caf\u00e9')).toBe(true);
    expect(isSendableField('x-empty', '')).toBe(true);
  });

  it('refuses CR, LF, NUL and other controls in a value, and a name that is not a token', () => {
    for (const value of ['a\r\nb: c', 'a\nb', 'a\rb', 'a\u0000b', 'a\u007fb', 'a\u0100b'])
      expect(isSendableField('x-value', value)).toBe(false);
    for (const name of ['x value', 'x:y', 'x\r\ny', '']) expect(isSendableField(name, 'v')).toBe(false);
  });
});
