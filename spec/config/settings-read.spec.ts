// Every setting of the schema is read by the code that applies it: its key (written out, or a constant of that literal
// type) is handed to the typed reader `Config#get` (or `Config#getUser`; `framework.profile` is `Config#profile`), and
// the value read is used. A setting parsed
// and documented but read nowhere would be a row of docs/configuration.md that changes nothing; naming its key in a
// feature's `settings` list, a log message, an error text or a comment reads nothing, and neither does a read whose
// value is dropped. The compiler's own type checker tells a `Config` from a `Map` with a `get`.
import { join } from 'node:path';
import * as ts from 'typescript';
import { describeConfiguration } from '../../lib';

const root = join(__dirname, '..', '..');

/** The library's program, as `tsconfig.lib.json` compiles it. */
function libraryProgram(): ts.Program {
  const file = ts.readConfigFile(join(root, 'tsconfig.lib.json'), (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(file.config, ts.sys, root);
  return ts.createProgram(parsed.fileNames, parsed.options);
}

/** Whether `node`'s value goes somewhere: not a statement of its own, nor `void`ed. */
function isUsed(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isExpressionStatement(parent) || ts.isVoidExpression(parent)) return false;
  return !(ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent)) || isUsed(parent);
}

/**
 * The framework keys read in lib/ through a `Config` (or an interface naming the part of it some code needs, which a
 * `Config` is), the values used, each with where: `get(key)` and `getUser(key)` read a key, and the `profile` and
 * `profiles` properties read `framework.profile`.
 */
function keysRead(program: ts.Program): Map<string, string[]> {
  const checker = program.getTypeChecker();
  const configFile = program.getSourceFile(join(root, 'lib', 'config', 'config.ts'))!;
  const configClass = configFile.statements.find(
    (statement): statement is ts.ClassDeclaration =>
      ts.isClassDeclaration(statement) && statement.name?.text === 'Config',
  )!;
  const config = checker.getTypeAtLocation(configClass.name!);
  const isConfig = (node: ts.Expression) => {
    const type = checker.getTypeAtLocation(node);
    return (
      !(type.flags & ts.TypeFlags.Any) &&
      checker.isTypeAssignableTo(config, type) &&
      type.getProperty('get') !== undefined
    );
  };
  const reads = new Map<string, string[]>();
  const record = (key: string, file: ts.SourceFile, node: ts.Node) => {
    const where = `${file.fileName.slice(root.length + 1)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    reads.set(key, [...(reads.get(key) ?? []), where]);
  };
  const visit = (file: ts.SourceFile) => (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && isUsed(node)) {
      const name = node.name.text;
      if ((name === 'profile' || name === 'profiles') && isConfig(node.expression))
        record('framework.profile', file, node);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['get', 'getUser'].includes(node.expression.name.text) &&
      node.arguments.length === 1 &&
      isUsed(node) &&
      isConfig(node.expression.expression)
    ) {
      const key = checker.getTypeAtLocation(node.arguments[0]!);
      if (key.isStringLiteral()) record(key.value, file, node);
    }
    ts.forEachChild(node, visit(file));
  };
  for (const file of program.getSourceFiles()) {
    if (file.fileName.startsWith(join(root, 'lib')) && file !== configFile) visit(file)(file);
  }
  return reads;
}

describe('the settings of the schema', () => {
  it('are each read through Config by the code that applies them, the value used', () => {
    const reads = keysRead(libraryProgram());
    const unread = describeConfiguration()
      .map(({ key }) => key)
      // The per-category log levels are an open family, read by their shape (log-category-key.ts).
      .filter((key) => !key.includes('"<category>"'))
      .filter((key) => !reads.has(key));
    expect(unread).toEqual([]);
    // Nothing is read that the schema does not declare (a misspelt key would not type-check; this says so here too).
    const declared = new Set(describeConfiguration().map(({ key }) => key));
    expect([...reads.keys()].filter((key) => key.startsWith('framework.') && !declared.has(key))).toEqual([]);
  }, 120_000);
});
