// Cookies (RFC 6265): `Cookie` read, `Set-Cookie` written; values percent-encoded so any Unicode text survives.

import { formatHttpDate } from './http-date';
import { isToken } from './header-tokens';

/** The attributes of a {@link NewCookie}; `Expires` and `Max-Age` as in RFC 6265 §4.1.2. */
export interface NewCookieOptions {
  readonly path?: string;
  readonly domain?: string;
  /** Seconds until expiry; 0 or less deletes the cookie. */
  readonly maxAge?: number;
  readonly expires?: Date;
  readonly secure?: boolean;
  readonly httpOnly?: boolean;
  /** Browsers drop `SameSite=None` cookies that are not also `secure`. */
  readonly sameSite?: 'Strict' | 'Lax' | 'None';
}

// cookie-octet (RFC 6265 §4.1.1) minus `%`, which is kept for the escapes themselves.
const NOT_COOKIE_OCTET = /[^\x21\x23\x24\x26-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]/gu;
// av-octet (RFC 6265 §4.1.1): any CHAR except CTLs and `;`.
const ATTRIBUTE_VALUE = /^[^\x00-\x1f\x7f;]*$/;

/** RFC 6265 §5.4: the first of duplicate names wins (the most specific path comes first); escapes decoded. */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === null || header === undefined) return cookies;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0) continue;
    const name = pair.slice(0, equals).trim();
    if (name === '' || cookies.has(name)) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies.set(name, decode(value));
  }
  return cookies;
}

function decode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // not our escaping: keep the bytes as sent
  }
}

/**
 * A cookie to send with `Set-Cookie`, validated so that `toString()` never splits a header or injects attributes.
 *
 * @example new NewCookie('Flavour', 'Praliné', { path: '/', httpOnly: true }).toString()
 * // 'Flavour=Pralin%C3%A9; Path=/; HttpOnly'
 */
export class NewCookie {
  readonly name: string;
  readonly value: string;
  readonly options: NewCookieOptions;
  readonly #encodedValue: string;

  /** Throws a TypeError for a name that is not a token or an attribute with `;` or controls. */
  constructor(name: string, value: string, options: NewCookieOptions = {}) {
    if (!isToken(name)) throw new TypeError(`Invalid cookie name: ${JSON.stringify(name)}`);
    for (const attribute of [options.path, options.domain]) {
      if (attribute !== undefined && !ATTRIBUTE_VALUE.test(attribute)) {
        throw new TypeError(`Invalid attribute of cookie ${name}: ${JSON.stringify(attribute)}`);
      }
    }
    if (options.maxAge !== undefined && !Number.isSafeInteger(options.maxAge)) {
      throw new RangeError(`Max-Age of cookie ${name} must be an integer, got ${options.maxAge}`);
    }
    if (options.expires !== undefined && Number.isNaN(options.expires.getTime())) {
      throw new RangeError(`Expires of cookie ${name} is an invalid Date`);
    }
    this.#encodedValue = encode(name, value);
    this.name = name;
    this.value = value;
    this.options = Object.freeze({ ...options });
  }

  /** The `Set-Cookie` value: `name=value` then the attributes in RFC 6265 §4.1.1 order. */
  toString(): string {
    const { path, domain, maxAge, expires, secure, httpOnly, sameSite } = this.options;
    let text = `${this.name}=${this.#encodedValue}`;
    if (path !== undefined) text += `; Path=${path}`;
    if (domain !== undefined) text += `; Domain=${domain}`;
    if (maxAge !== undefined) text += `; Max-Age=${maxAge}`;
    if (expires !== undefined) text += `; Expires=${formatHttpDate(expires)}`;
    if (secure === true) text += '; Secure';
    if (httpOnly === true) text += '; HttpOnly';
    if (sameSite !== undefined) text += `; SameSite=${sameSite}`;
    return text;
  }
}

function encode(name: string, value: string): string {
  try {
    return value.replace(NOT_COOKIE_OCTET, (character) => encodeURIComponent(character));
  } catch {
    throw new TypeError(`Value of cookie ${name} is not well-formed Unicode`);
  }
}
