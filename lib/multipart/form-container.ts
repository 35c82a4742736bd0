/** Container classes: classes whose properties carry `@RestForm` (and `@PartType`), read from or written as a form. */
import { PARAM_OPTIONS, type ParamOptions } from '../decorators/params';
import { PART_TYPE } from '../decorators/multipart';
import { readDesignType } from '../metadata/reflect-shim';
import { classChain } from '../metadata/store';
import { partTarget, type PartTarget } from './part-target';

/** One `@RestForm` property of a container class. */
export interface FormField {
  readonly property: string;
  /** The part name (the decorator's, else the property's). */
  readonly name: string;
  readonly options: ParamOptions;
  readonly designType: unknown;
  readonly target: PartTarget;
}

/** The `@RestForm` properties of a class and its superclasses; empty for a class that is not a container. */
export function formFields(type: unknown): FormField[] {
  if (typeof type !== 'function') return [];
  const fields: FormField[] = [];
  const seen = new Set<string>();
  for (const meta of classChain(type)) {
    for (const property of meta.properties.values()) {
      const param = property.params.find((p) => p.kind === 'form');
      if (!param || seen.has(property.name)) continue;
      seen.add(property.name);
      const options = param.tags.get(PARAM_OPTIONS) ?? {};
      const designType = readDesignType('design:type', type.prototype as object, property.name);
      const target = partTarget(options.type, designType, property.tags.get(PART_TYPE) ?? param.tags.get(PART_TYPE));
      fields.push({ property: property.name, name: param.name ?? property.name, options, designType, target });
    }
  }
  return fields;
}

/** Whether instances of this type are form containers (written part by part under multipart/form-data). */
export function isFormContainer(type: unknown): boolean {
  return formFields(type).length > 0;
}
