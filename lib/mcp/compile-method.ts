/** One MCP method as the build step compiles it: its parameters told apart by type once, and its guard. */
import { ACCESS_RULE, type AccessRule } from '../decorators/security';
import { locate, type ProblemCollector } from '../errors/definition-error';
import { readDesignType } from '../metadata/reflect-shim';
import type { MetaKey, MethodMeta } from '../metadata/store';
import type { Unit } from '../metadata/unit';
import { chain, type StageFn } from '../pipeline/chain';
import { SecurityContext } from '../security/security-context';
import type { McpBuildContext } from './mcp-build-context';
import { McpCall } from './mcp-call';

export interface McpMethod {
  /** `Class#method`, for errors and logs. */
  readonly where: string;
  readonly inputType: unknown;
  readonly takesInput: boolean;
  readonly takesCall: boolean;
  invoke(input: unknown, security: SecurityContext, call?: McpCall): unknown;
}

export interface MethodGuard {
  /** The rule hides the method from lists of callers who may not use it. */
  readonly rule: AccessRule | undefined;
  /** Authenticates, applies the rule (401/403 as for a resource method) and the limit before a call. */
  readonly check: StageFn | undefined;
}

/** Its parameters: at most one input, an `McpCall` (for a tool), a `SecurityContext`. */
export function compileMcpMethod(
  unit: Unit,
  name: string,
  problems: ProblemCollector,
  callAllowed: boolean,
): McpMethod {
  const where = locate(unit.type, name);
  const fn = (unit.instance as Record<string, Function>)[name]!;
  const types = (readDesignType('design:paramtypes', unit.type.prototype, name) as unknown[] | undefined) ?? [];
  const kinds: ('input' | 'call' | 'security')[] = [];
  let inputType: unknown;
  for (let i = 0; i < Math.max(types.length, fn.length); i++) {
    const kind = types[i] === McpCall ? 'call' : types[i] === SecurityContext ? 'security' : 'input';
    if (kind === 'input' && kinds.includes('input'))
      problems.add(
        where,
        'takes one parameter for its input (the arguments); the others are McpCall or SecurityContext',
      );
    if (kind === 'call' && !callAllowed) problems.add(where, 'only a @Tool method gets an McpCall');
    if (kind === 'input') inputType = types[i];
    kinds.push(kind);
  }
  return {
    where,
    inputType,
    takesInput: kinds.includes('input'),
    takesCall: kinds.includes('call'),
    invoke: (input, security, call) =>
      fn.apply(
        unit.instance,
        kinds.map((kind) => (kind === 'input' ? input : kind === 'call' ? call : security)),
      ),
  };
}

/** The method's own rule and limit (its class's apply to every request, before): the features' own steps. */
export function methodGuard(unit: Unit, method: MethodMeta, where: string, context: McpBuildContext): MethodGuard {
  const info = { ...context.info, methodName: method.name };
  const joined = context.joins({ unit, method, where, info, produces: [], streams: false, transport: 'call' });
  const steps = [...joined.at('authenticate'), ...joined.at('admit')];
  return { rule: method.tags.get(ACCESS_RULE), check: steps.length ? chain(steps) : undefined };
}

/** Compiled by key (`undefined`: problems); a key taken twice is the problem `taken` words, else the last wins. */
export function compileTagged<O, T>(
  unit: Unit,
  problems: ProblemCollector,
  tag: MetaKey<O>,
  compile: (options: O, meta: MethodMeta, where: string) => readonly [string, T] | undefined,
  taken?: (key: string, holder: T) => string,
): Map<string, T> {
  const compiled = new Map<string, T>();
  for (const meta of unit.meta.methods.values()) {
    const options = meta.tags.get(tag);
    const where = locate(unit.type, meta.name);
    const entry = options && compile(options, meta, where);
    if (!entry) continue;
    const holder = compiled.get(entry[0]);
    if (holder !== undefined && taken) problems.add(where, taken(entry[0], holder));
    else compiled.set(...entry);
  }
  return compiled;
}
