/**
 * File results need a disk (Node's fs; never workerd's, which holds none of the application's files). When that is
 * known: from a method's declared return type at build where decorator metadata exists (tsc, Bun), else from the
 * result itself at the request. Either way the message names the feature and the runtime.
 */
import { needLocalDisk, type BuiltinName } from '../runtime/node-builtins';
import { LocalFile } from '../body/local-file-body';
import { FILE_RESULTS, FilePart } from './file-results';

/** What serving a file result loads: the file's size and bytes, and its stream handed to a Web response. */
const FILE_BUILTINS: readonly BuiltinName[] = ['node:fs', 'node:fs/promises', 'node:path', 'node:stream'];

/**
 * Stops the build, where the runtime has no disk, of a method declared to return a file (`design:returntype`); a
 * method without metadata (an esbuild bundle) passes, and {@link needDiskForResultOf} refuses its result instead.
 */
export function checkFileReturnType(returnType: unknown): void {
  if (returnType === LocalFile || returnType === FilePart) needLocalDisk(FILE_RESULTS, ...FILE_BUILTINS);
}

/**
 * Fails a request whose method returned a file where the runtime has no disk, naming the method (`where`), the
 * feature and the runtime: the error goes to the log, and the client gets the plain 500 problem.
 */
export function needDiskForResultOf(where: string | undefined): void {
  needLocalDisk(where ? `${where}: ${FILE_RESULTS}` : FILE_RESULTS, ...FILE_BUILTINS);
}
