/** Container classes: classes whose properties carry `@RestForm` (and `@PartType`), read from or written as a form. */
import { PARAM_OPTIONS } from '../decorators/params';
import { PART_TYPE } from '../decorators/multipart';
import { readDesignType } from '../metadata/reflect-shim';
import { decoratedProperties } from '../metadata/store';
import { partTarget, type PartTarget } from './part-target';

/** The `@RestForm` properties of a class and its superclasses (a subclass's declaration wins). */
export function formFields(type: unknown): { property: string; name: string; target: PartTarget }[] {
  if (typeof type !== 'function') return [];
  return decoratedProperties(type).flatMap(({ name, meta, tags }) => {
    if (meta.kind !== 'form') return [];
    const options = meta.tags.get(PARAM_OPTIONS) ?? {};
    const designType = readDesignType('design:type', type.prototype as object, name);
    const target = partTarget(options.type, designType, tags.get(PART_TYPE) ?? meta.tags.get(PART_TYPE));
    return [{ property: name, name: meta.name ?? name, target }];
  });
}

export function isFormContainer(type: unknown): boolean {
  return formFields(type).length > 0;
}
