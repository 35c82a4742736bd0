/** File results: `localFile(path)` for a whole file (a `Path` or `File` result in Java REST), `FilePart` for part of one. */
import { needLocalDisk, nodeBuiltin } from '../runtime/node-builtins';
import { LocalFile } from '../body/local-file-body';

export const FILE_RESULTS = 'file results (LocalFile, FilePart) returned from a method';

// Checked at each call: a Worker's node:fs (under nodejs_compat) has none of the application's files to serve.
function diskBuiltin<K extends 'node:fs' | 'node:path'>(name: K): ReturnType<typeof nodeBuiltin<K>> {
  needLocalDisk(FILE_RESULTS, name);
  return nodeBuiltin(name, FILE_RESULTS);
}
const nodeFs = () => diskBuiltin('node:fs');
const nodePath = () => diskBuiltin('node:path');

/**
 * A `LocalFile` for the file at `path`, to return from a method: served with `Content-Type` from its name,
 * `Content-Length`, and single `Range` requests (206).
 *
 * @throws the `stat` error when there is no such file.
 * @example
 * \@GET @Path('report') report(): LocalFile { return localFile('/var/reports/latest.pdf'); }
 */
export function localFile(path: string, contentType?: string): LocalFile {
  const absolute = nodePath().resolve(path);
  return new LocalFile(absolute, nodeFs().statSync(absolute).size, contentType);
}

function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/**
 * `length` bytes of a file from `offset`, served as 200 with that content; the part must lie within the file.
 *
 * @throws RangeError for a negative or fractional offset or length, or a part beyond the end of the file.
 * @example
 * return new FilePart('/data/log.txt', 20, 10); // bytes 20..29
 */
export class FilePart {
  readonly path: string;

  constructor(
    file: string | LocalFile,
    readonly offset: number,
    readonly length: number,
  ) {
    this.path = nodePath().resolve(typeof file === 'string' ? file : file.path);
    if (!isCount(offset) || !isCount(length))
      throw new RangeError(`A file part needs a non-negative integer offset and length, got ${offset} and ${length}`);
    const size = nodeFs().statSync(this.path).size;
    if (offset + length > size)
      throw new RangeError(`The part ${offset}+${length} lies beyond the ${size} bytes of ${this.path}`);
  }
}
