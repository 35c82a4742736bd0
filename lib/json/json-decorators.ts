/** JSON mapping decorators: unknown-property policy per class, date formats per field, creators and field types. */
import { classMeta, metaKey } from '../metadata/store';
import { memberProperty } from '../decorators/decorator-types';

export interface JsonIgnorePropertiesOptions {
  /** `false` makes unknown properties of this class a 400 whatever the configuration says; `true` ignores them. */
  ignoreUnknown?: boolean;
}

export interface JsonFormatOptions {
  /** A date-fns pattern (`yyyy-MM-dd`, `dd/MM/yyyy HH:mm`) the `Date` field is written and read with. */
  pattern: string;
}

export interface JsonPropertyOptions {
  /** The field's type when metadata cannot tell it: a class, `Date`, or `[Class]` for an array of them. */
  type?: Function | readonly [Function];
}

export const JSON_IGNORE_PROPERTIES = metaKey<JsonIgnorePropertiesOptions>('json-ignore-properties');
export const JSON_FORMAT = metaKey<JsonFormatOptions>('json-format');
export const JSON_PROPERTY = metaKey<JsonPropertyOptions>('json-property');
export const JSON_CREATOR = metaKey<string>('json-creator');

let formats = 0;

/** Whether any `@JsonFormat` was declared (writers then take the slower field-aware path). */
export function jsonFormatsDeclared(): boolean {
  return formats > 0;
}

/**
 * Per-class unknown-property policy.
 *
 * @example
 * \@JsonIgnoreProperties({ ignoreUnknown: false }) class Order { id = 0; }
 */
export function JsonIgnoreProperties(options: JsonIgnorePropertiesOptions): (target: Function) => void {
  return (target) => classMeta(target).tags.set(JSON_IGNORE_PROPERTIES, options);
}

/**
 * The format of a `Date` field, written and read (instead of ISO-8601).
 *
 * @example
 * class Event { \@JsonFormat({ pattern: 'dd/MM/yyyy' }) day = new Date(0); }
 */
export function JsonFormat(options: JsonFormatOptions): (target: object, propertyKey: string) => void {
  return (target, propertyKey) => {
    formats++;
    memberProperty(target, propertyKey).tags.set(JSON_FORMAT, options);
  };
}

/**
 * Declares a field to the mapper: known for `fail-on-unknown-properties`, and typed (nested class, `Date`).
 *
 * @example
 * class Basket { \@JsonProperty({ type: [Fruit] }) fruits: Fruit[] = []; }
 */
export function JsonProperty(options: JsonPropertyOptions = {}): (target: object, propertyKey: string) => void {
  return (target, propertyKey) => memberProperty(target, propertyKey).tags.set(JSON_PROPERTY, options);
}

/**
 * Marks the static method that creates instances from parsed JSON, for classes whose constructor takes arguments.
 *
 * @example
 * class Money { constructor(readonly cents: number) {} \@JsonCreator() static of(json: { cents: number }) { return new Money(json.cents); } }
 */
export function JsonCreator(): (target: Function, propertyKey: string) => void {
  return (target, propertyKey) => classMeta(target).tags.set(JSON_CREATOR, propertyKey);
}
