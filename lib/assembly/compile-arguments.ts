/** Compiles an endpoint method's parameters into one function reading every argument from the request. */
import { declaredParameters } from '../metadata/param-names';
import { Tags, type MethodMeta, type ParamMeta } from '../metadata/store';
import { PART_TYPE } from '../decorators/multipart';
import { DEFAULT_VALUE, PARAM_OPTIONS } from '../decorators/params';
import type { ParamFact } from '../openapi/endpoint-facts';
import { compileArgument, type ArgumentReader, type ArgumentSpec } from '../params/compile-argument';
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

/** Kinds converted by type: without one they stay strings (a body plain JSON). */
const typedKinds = new Set<ParamMeta['kind']>(['path', 'query', 'header', 'cookie', 'form', 'matrix', 'body']);

/** An undecorated parameter: a context object by type, a template variable by name, else the body (or message). */
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

/** One parameter of a method, and where its problems are reported. */
export type MethodParameter = Pick<ArgumentSpec, 'meta' | 'name' | 'designType'> & { readonly where: string };

/** The parameters of `method`, and whether decorator metadata gave their types. */
export function methodParameters(type: Function, method: MethodMeta, template: PathTemplate) {
  const { typed, types, names, count } = declaredParameters(type, method);
  const params = Array.from({ length: count }, (_, i): MethodParameter => {
    const meta = method.params.get(i) ?? implicitMeta(i, types[i], names[i], template);
    return { meta, name: meta.name ?? names[i], designType: types[i], where: locate(type, method.name, names[i] ?? i) };
  });
  return { params, typed };
}

/** A path parameter must name a variable of the template. */
export function checkPathName(
  { meta, name, where }: MethodParameter,
  template: PathTemplate,
  problems: ProblemCollector,
) {
  if (meta.kind === 'path' && name !== undefined && !template.variables.includes(name))
    problems.add(where, `the path parameter "${name}" is not a variable of the template ${template.template}`);
}

function readsBody({ meta, designType }: MethodParameter): boolean {
  if (meta.kind === 'bean') return beanReadsBody(meta.tags.get(PARAM_OPTIONS)?.type ?? designType);
  return meta.kind === 'body' || meta.kind === 'form';
}

function paramFact({ meta, name, designType }: MethodParameter): ParamFact {
  const options = meta.tags.get(PARAM_OPTIONS);
  return {
    kind: meta.kind,
    name,
    type: options?.type ?? designType,
    schema: options?.schema,
    required: options?.required,
    defaultValue: meta.tags.get(DEFAULT_VALUE),
    stream: meta.kind === 'body' && isItemStreamParameter(designType, options ?? {}),
    partType: meta.tags.get(PART_TYPE),
  };
}

/** Whether the parameter's decorator gives its type (`{ type }` or `{ schema }`). */
function typeGiven(meta: ParamMeta): boolean {
  const options = meta.tags.get(PARAM_OPTIONS);
  return options?.type !== undefined || options?.schema !== undefined;
}

/** The build-time checks of one parameter; `false` when it cannot be read at all. */
function checkParameter(param: MethodParameter, typed: boolean, template: PathTemplate, problems: ProblemCollector) {
  const { meta, where } = param;
  if (meta.nameRequired && !meta.name)
    problems.add(where, `@${meta.kind[0].toUpperCase()}${meta.kind.slice(1)}Param needs a name`);
  checkPathName(param, template, problems);
  if (typed || meta.kind !== 'context' || typeGiven(meta)) return true;
  problems.add(
    where,
    'the context type is unknown without decorator metadata: give it, e.g. @Context({ type: UriInfo })',
  );
  return false;
}

/** Decorator metadata is used when present, never required, but a type it would have given is not guessed. */
function warnUntyped(location: string, params: readonly MethodParameter[]): void {
  const untyped = params.filter(({ meta }) => typedKinds.has(meta.kind) && !typeGiven(meta));
  if (untyped.length)
    log.warn(
      `${location}: no decorator metadata (design:paramtypes) was emitted, so these parameters are read as strings` +
        ` (a body as plain JSON): ${untyped.map(({ meta, name }) => `${name ?? meta.index} (${meta.kind})`).join(', ')}.` +
        ' Enable "experimentalDecorators" and "emitDecoratorMetadata" in tsconfig, or give each type explicitly ({ type } or { schema }).',
    );
}

export function compileArguments(
  type: Function,
  method: MethodMeta,
  template: PathTemplate,
  settings: BodySettings,
  problems: ProblemCollector,
): { readonly read: StageFn | undefined; readonly readsBody: boolean; readonly facts: readonly ParamFact[] } {
  const { params, typed } = methodParameters(type, method, template);
  const readers: ArgumentReader[] = [];
  const facts: ParamFact[] = [];
  for (const param of params) {
    if (!checkParameter(param, typed, template, problems)) continue;
    facts.push(paramFact(param));
    const reader = problems.attempt(param.where, () => compileArgument({ ...param, settings, template }));
    if (reader) readers.push(reader);
  }
  if (!typed) warnUntyped(locate(type, method.name), params);
  const bodies = params.filter(({ meta }) => meta.kind === 'body').length;
  if (bodies > 1)
    problems.add(
      locate(type, method.name),
      `only one parameter can receive the request body, but ${bodies} are undecorated or @Body`,
    );
  return { read: readers.length ? readArguments(readers) : undefined, readsBody: params.some(readsBody), facts };
}
