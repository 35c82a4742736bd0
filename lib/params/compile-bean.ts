/** Compiles a `@BeanParam` class: each decorated property is read like a parameter, then set on a new instance. */
import { PARAM_OPTIONS } from '../decorators/params';
import { readDesignType } from '../metadata/reflect-shim';
import { decoratedProperties } from '../metadata/store';
import type { RequestContext } from '../context/request-context';
import type { ArgumentReader, ArgumentSpec } from './argument-spec';
import { describeType } from '../convert/convert';
import { messageOf } from '../errors/message-of';

type CompileArgument = (spec: ArgumentSpec) => ArgumentReader;

interface BeanProperty {
  readonly name: string;
  readonly read: ArgumentReader;
}

/** Each decorated property is compiled with the settings and template of `parent`, what the bean is read for. */
export function compileBeanReader(type: unknown, parent: ArgumentSpec, compile: CompileArgument): ArgumentReader {
  const outer = parent.beans ?? [];
  if (typeof type !== 'function')
    throw new Error(
      `the @BeanParam type is unknown: give it with @BeanParam({ type: MyBean }) when decorator metadata is off`,
    );
  const Bean = type as new () => object;
  if (outer.includes(Bean)) throw new Error(`the @BeanParam class ${Bean.name} contains itself`);
  if (Bean.length > 0) throw new Error(`the @BeanParam class ${Bean.name} needs a constructor without parameters`);
  const properties: BeanProperty[] = [];
  for (const { name, meta, tags } of decoratedProperties(Bean)) {
    const hinted = meta.tags.get(PARAM_OPTIONS)?.type ?? tags.get(PARAM_OPTIONS)?.type;
    const designType = hinted ?? readDesignType('design:type', Bean.prototype, name);
    try {
      const read = compile({
        meta,
        name: meta.name ?? name,
        designType,
        settings: parent.settings,
        template: parent.template,
        extraTags: tags,
        beans: [...outer, Bean],
      });
      properties.push({ name, read });
    } catch (error) {
      throw new Error(`${Bean.name}.${name} (${describeType(designType)}): ${messageOf(error)}`);
    }
  }
  if (properties.length === 0) throw new Error(`the @BeanParam class ${Bean.name} has no decorated properties`);
  return beanReader(Bean, properties);
}

/** Waits only when some properties are read asynchronously. */
function beanReader(Bean: new () => object, properties: readonly BeanProperty[]): ArgumentReader {
  return (ctx: RequestContext) => {
    const bean = new Bean() as Record<string, unknown>;
    let pending: Promise<unknown>[] | undefined;
    for (const { name, read } of properties) {
      const value = read(ctx);
      if (value instanceof Promise) (pending ??= []).push(value.then((resolved) => (bean[name] = resolved)));
      else bean[name] = value;
    }
    return pending ? Promise.all(pending).then(() => bean) : bean;
  };
}

/** A form or body property (of nested beans too) makes the endpoint read the body. */
export function beanReadsBody(type: unknown, outer: readonly unknown[] = []): boolean {
  if (typeof type !== 'function' || outer.includes(type)) return false;
  return decoratedProperties(type).some(({ name, meta }) => {
    if (meta.kind === 'form' || meta.kind === 'body') return true;
    if (meta.kind !== 'bean') return false;
    const nested = meta.tags.get(PARAM_OPTIONS)?.type ?? readDesignType('design:type', type.prototype, name);
    return beanReadsBody(nested, [...outer, type]);
  });
}
