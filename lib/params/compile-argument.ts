/** Each endpoint parameter compiled into a function that reads its value from the request. */
import { DATE_FORMAT, DEFAULT_VALUE, PARAM_OPTIONS, SEPARATOR, type ParamOptions } from '../decorators/params';
import type { MetaKey } from '../metadata/store';
import type { ArgumentReader, ArgumentSpec } from './argument-spec';
import { compileBeanReader } from './compile-bean';
import { contextResolver } from './context-types';
import { describeType } from '../convert/convert';
import { compileBodyReader } from './read-body-argument';
import { compileItemStreamReader, isItemStreamParameter } from './read-item-stream';
import { compileValueReader } from './compile-value';
import { PART_TYPE } from '../decorators/multipart';
import {
  compileContainerBodyReader,
  compileMultipartArgument,
  compileMultipartInputReader,
} from '../multipart/compile-multipart-argument';
import { isFormContainer } from '../multipart/form-container';
import { MultipartFormDataInput } from '../multipart/multipart-form-data-input';

export type { ArgumentReader, ArgumentSpec } from './argument-spec';

function tagOf<T>(spec: ArgumentSpec, key: MetaKey<T>): T | undefined {
  return spec.meta.tags.get(key) ?? spec.extraTags?.get(key);
}

function compileBodyArgument(spec: ArgumentSpec, options: ParamOptions): ArgumentReader {
  const { designType, settings } = spec;
  // A Multi of items: `type` and `schema` describe each item, not the body.
  if (isItemStreamParameter(designType, options)) return compileItemStreamReader(options, settings);
  const type = options.type ?? designType;
  if (type === MultipartFormDataInput) return compileMultipartInputReader(settings.multipart);
  const body = compileBodyReader(designType, options, settings);
  // A class with @RestForm properties is a form container: read part by part from multipart requests.
  if (!isFormContainer(type)) return body;
  return compileContainerBodyReader(compileBeanReader(type, spec, compileArgument), body);
}

export function compileArgument(spec: ArgumentSpec): ArgumentReader {
  const { meta, name, designType } = spec;
  const options: ParamOptions = tagOf(spec, PARAM_OPTIONS) ?? {};
  switch (meta.kind) {
    case 'context': {
      const resolve = contextResolver(options.type ?? designType);
      if (!resolve)
        throw new Error(`no context object of type ${describeType(options.type ?? designType)} can be injected`);
      return resolve;
    }
    case 'body':
      return compileBodyArgument(spec, options);
    case 'bean':
      return compileBeanReader(options.type ?? designType, spec, compileArgument);
    default: {
      if (!name)
        throw new Error(
          `the ${meta.kind} parameter has no name: give one to the decorator, or compile with parameter names kept`,
        );
      // Files, paths, handles and entities come from multipart parts; text values take the usual path below.
      const part =
        meta.kind === 'form'
          ? compileMultipartArgument(name, options.type, designType, tagOf(spec, PART_TYPE), spec.settings)
          : undefined;
      if (part) return part;
      return compileValueReader({
        kind: meta.kind,
        name,
        options,
        designType,
        defaultValue: tagOf(spec, DEFAULT_VALUE),
        separator: tagOf(spec, SEPARATOR),
        dateFormat: tagOf(spec, DATE_FORMAT),
        settings: spec.settings,
        template: spec.template,
      });
    }
  }
}
