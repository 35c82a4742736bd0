/** Decorator signatures shared by the decorator modules (TypeScript legacy decorators). */

/** Usable on a class or on one of its methods. */
export type ClassOrMethodDecorator = (
  target: object,
  propertyKey?: string | symbol,
  descriptor?: PropertyDescriptor,
) => void;

/** Usable on a method parameter or on a class property (the bean-parameter form). */
export type ParamOrPropertyDecorator = (
  target: object,
  propertyKey: string | symbol | undefined,
  parameterIndex?: number,
) => void;

export function memberName(propertyKey: string | symbol): string {
  return typeof propertyKey === 'symbol' ? (propertyKey.description ?? propertyKey.toString()) : propertyKey;
}
