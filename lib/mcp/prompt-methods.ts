/** `prompts/list`, `prompts/get` and `completion/complete`: a prompt the caller may not use is neither listed nor got. */
import { map } from 'rxjs/internal/operators/map';
import { toCompletion, completionKey, type CompletionRequest } from './compile-completions';
import type { McpMethod } from './compile-parameters';
import type { CompiledPrompt } from './compile-prompts';
import { describeViolations } from './input-binding';
import { INVALID_PARAMS, McpProtocolError, type JsonRpcRequest } from './json-rpc';
import { allows } from './method-guard';
import { toPromptResult } from './prompt-messages';
import { requiredText, type MethodHandler, type RequestScope } from './method-handler';
import { outputOf } from './tool-call';

function get(prompts: ReadonlyMap<string, CompiledPrompt>, request: JsonRpcRequest, scope: RequestScope): unknown {
  const name = requiredText(request, 'name');
  const prompt = prompts.get(name);
  if (!prompt || !allows(prompt.guard.rule, scope.security))
    throw new McpProtocolError(INVALID_PARAMS, `Unknown prompt: ${name}`);
  const bound = prompt.input.bind(request.params?.arguments ?? {});
  if (!bound.ok)
    throw new McpProtocolError(
      INVALID_PARAMS,
      `Invalid arguments for ${name}: ${describeViolations(bound.violations)}`,
    );
  const value = prompt.method.invoke({ input: bound.value, call: undefined, security: scope.security });
  return outputOf(value).pipe(map((result) => toPromptResult(result, prompt.description)));
}

function textsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function complete(completions: ReadonlyMap<string, McpMethod>, request: JsonRpcRequest, scope: RequestScope): unknown {
  const ref = (request.params?.ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
  const argument = (request.params?.argument ?? {}) as { name?: unknown; value?: unknown };
  if (typeof argument.name !== 'string' || typeof ref.type !== 'string')
    throw new McpProtocolError(INVALID_PARAMS, 'completion/complete needs a ref and an argument name');
  const target = ref.type === 'ref/prompt' ? ref.name : ref.uri;
  const method = completions.get(completionKey(ref.type, String(target), argument.name));
  if (!method) return { completion: toCompletion([]) };
  const input: CompletionRequest = {
    argument: argument.name,
    value: typeof argument.value === 'string' ? argument.value : '',
    context: textsOf((request.params?.context as { arguments?: unknown } | undefined)?.arguments),
  };
  return outputOf(method.invoke({ input, call: undefined, security: scope.security })).pipe(
    map((value) => ({ completion: toCompletion(value) })),
  );
}

/** The prompt and completion methods of a server. */
export function promptMethods(
  prompts: ReadonlyMap<string, CompiledPrompt>,
  completions: ReadonlyMap<string, McpMethod>,
): [string, MethodHandler][] {
  return [
    [
      'prompts/list',
      (_request, { security }) => ({
        prompts: [...prompts.values()].filter((p) => allows(p.guard.rule, security)).map((p) => p.definition),
      }),
    ],
    ['prompts/get', (request, scope) => get(prompts, request, scope)],
    ['completion/complete', (request, scope) => complete(completions, request, scope)],
  ];
}
