/** Compiles an endpoint method's parameters into one function reading every argument from the request. */
import { readDesignType } from '../metadata/reflect-shim';
import { readParameterNames } from '../metadata/param-names';
import { Tags, type MethodMeta, type ParamMeta } from '../metadata/store';
import { PART_TYPE } from '../decorators/multipart';
import { DEFAULT_VALUE, PARAM_OPTIONS } from '../decorators/params';
import type { ParamFact } from '../openapi/endpoint-facts';
import { compileArgument, type ArgumentReader } from '../params/compile-argument';
import { beanReadsBody } from '../params/compile-bean';
import { contextResolver } from '../params/context-types';
import { isItemStreamParameter } from '../params/read-item-stream';
import { logging } from '../logging/logger';
import type { BodySettings } from '../params/read-body-argument';
import type { StageFn } from '../context/settle';
import type { PathTemplate } from '../routing/path-template';
import { locate, type ProblemCollector } from '../errors/definition-error';
import { readArguments } from '../pipeline/invoke';

const log = logging.getLogger('rxrest.build');

/** Kinds whose value is converted by type: without one they stay strings (a body stays plain JSON). */
const typedKinds = new Set<ParamMeta['kind']>(['path', 'query', 'header', 'cookie', 'form', 'matrix', 'body']);

export interface CompiledArguments {
  readonly read: StageFn | undefined;
  readonly readsBody: boolean;
  /** Each parameter as resolved, for the API description. */
  readonly facts: readonly ParamFact[];
}

/**
 * The kind of an undecorated parameter: a context object by type, a template variable by name, else the body (a
 * socket method's message).
 */
export function implicitMeta(
  index: number,
  type: unknown,
  name: string | undefined,
  template: PathTemplate,
): ParamMeta {
  const kind = contextResolver(type)
    ? 'context'
    : name !== undefined && template.variables.includes(name)
      ? 'path'
      : 'body';
  return { index, kind, tags: new Tags() };
}

export function compileArguments(
  type: Function,
  method: MethodMeta,
  template: PathTemplate,
  settings: BodySettings,
  problems: ProblemCollector,
): CompiledArguments {
  const fn = (type.prototype as Record<string, unknown>)[method.name] as Function;
  const designTypes = readDesignType('design:paramtypes', type.prototype, method.name) as unknown[] | undefined;
  const types = designTypes ?? [];
  const names = readParameterNames(fn) ?? [];
  const untyped: string[] = [];
  const count = Math.max(types.length, fn.length, names.length, ...[...method.params.keys()].map((i) => i + 1));
  const readers: ArgumentReader[] = [];
  const facts: ParamFact[] = [];
  let bodies = 0;
  let readsBody = false;
  for (let i = 0; i < count; i++) {
    const meta = method.params.get(i) ?? implicitMeta(i, types[i], names[i], template);
    const where = locate(type, method.name, names[i] ?? i);
    if (meta.kind === 'body') bodies++;
    if (
      meta.kind === 'body' ||
      meta.kind === 'form' ||
      (meta.kind === 'bean' && beanReadsBody(meta.tags.get(PARAM_OPTIONS)?.type ?? types[i]))
    )
      readsBody = true;
    if (meta.nameRequired && !meta.name)
      problems.add(where, `@${meta.kind[0].toUpperCase()}${meta.kind.slice(1)}Param needs a name`);
    const name = meta.name ?? names[i];
    if (meta.kind === 'path' && name !== undefined && !template.variables.includes(name)) {
      problems.add(where, `the path parameter "${name}" is not a variable of the template ${template.template}`);
    }
    const options = meta.tags.get(PARAM_OPTIONS);
    if (!designTypes && options?.type === undefined && options?.schema === undefined) {
      if (meta.kind === 'context') {
        problems.add(
          where,
          'the context type is unknown without decorator metadata: give it, e.g. @Context({ type: UriInfo })',
        );
        continue;
      }
      if (typedKinds.has(meta.kind)) untyped.push(`${name ?? i} (${meta.kind})`);
    }
    const stream = meta.kind === 'body' && isItemStreamParameter(types[i], options ?? {});
    facts.push({
      kind: meta.kind,
      name,
      type: options?.type ?? types[i],
      schema: options?.schema,
      required: options?.required,
      defaultValue: meta.tags.get(DEFAULT_VALUE),
      stream,
      partType: meta.tags.get(PART_TYPE),
    });
    const reader = problems.attempt(where, () =>
      compileArgument({ meta, name, designType: types[i], settings, template }),
    );
    if (reader) readers.push(reader);
  }
  // Decorator metadata is used when present, never required, but a type it would have given is not guessed.
  if (untyped.length) {
    log.warn(
      `${locate(type, method.name)}: no decorator metadata (design:paramtypes) was emitted, so these parameters are read as strings` +
        ` (a body as plain JSON): ${untyped.join(', ')}. Enable "experimentalDecorators" and "emitDecoratorMetadata" in tsconfig,` +
        ' or give each type explicitly ({ type } or { schema }).',
    );
  }
  if (bodies > 1)
    problems.add(
      locate(type, method.name),
      `only one parameter can receive the request body, but ${bodies} are undecorated or @Body`,
    );
  return { read: readers.length ? readArguments(readers) : undefined, readsBody, facts };
}
