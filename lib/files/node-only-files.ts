/**
 * File results need a disk (Node's fs, never workerd's): refused at build from a method's declared return type where
 * metadata exists, else at the request from the result itself.
 */
import { needLocalDisk, type BuiltinName } from '../runtime/node-builtins';
import { LocalFile } from '../body/local-file-body';
import { FILE_RESULTS, FilePart } from './file-results';

const FILE_BUILTINS: readonly BuiltinName[] = ['node:fs', 'node:fs/promises', 'node:path', 'node:stream'];

/** Stops the build of a method declared to return a file where the runtime has no disk. */
export function checkFileReturnType(returnType: unknown): void {
  if (returnType === LocalFile || returnType === FilePart) needLocalDisk(FILE_RESULTS, ...FILE_BUILTINS);
}

/** Fails a request whose method (`where`) returned a file where the runtime has no disk: the client gets a 500. */
export function needDiskForResultOf(where: string | undefined): void {
  needLocalDisk(where ? `${where}: ${FILE_RESULTS}` : FILE_RESULTS, ...FILE_BUILTINS);
}
