/** Container classes: classes whose properties carry `@RestForm` (and `@PartType`), read from or written as a form. */
import { PARAM_OPTIONS } from '../decorators/params';
import { PART_TYPE } from '../decorators/multipart';
import { readDesignType } from '../metadata/reflect-shim';
import { decoratedProperties } from '../metadata/store';
import { partTarget, type PartTarget } from './part-target';

/** One `@RestForm` property of a container class. */
export interface FormField {
  readonly property: string;
  /** The part name (the decorator's, else the property's). */
  readonly name: string;
  readonly target: PartTarget;
}

/** The `@RestForm` properties of a class and its superclasses (a subclass's declaration wins); empty for a class that is not a container. */
export function formFields(type: unknown): FormField[] {
  if (typeof type !== 'function') return [];
  return decoratedProperties(type).flatMap(({ name, meta, tags }) => {
    if (meta.kind !== 'form') return [];
    const options = meta.tags.get(PARAM_OPTIONS) ?? {};
    const designType = readDesignType('design:type', type.prototype as object, name);
    const target = partTarget(options.type, designType, tags.get(PART_TYPE) ?? meta.tags.get(PART_TYPE));
    return [{ property: name, name: meta.name ?? name, target }];
  });
}

/** Whether instances of this type are form containers (written part by part under multipart/form-data). */
export function isFormContainer(type: unknown): boolean {
  return formFields(type).length > 0;
}
