/** The TLS port's settings from `framework.http.ssl.*`; the files are read at start-up and again on `SIGHUP`. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Config } from '../config';
import { settingError } from '../config/config-error';

const nodeFs = () => nodeBuiltin('node:fs', 'TLS (framework.http.ssl.*)');
const nodePath = () => nodeBuiltin('node:path', 'TLS (framework.http.ssl.*)');
const nodeTls = () => nodeBuiltin('node:tls', 'TLS (framework.http.ssl.*)');

/** As `tls.createSecureContext` takes them. */
export interface Credentials {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly passphrase?: string;
}

export interface TlsSettings {
  readonly port: number;
  readonly http2: boolean;
  readonly insecureRequests: 'enabled' | 'redirect' | 'disabled';
  /** Reads the files again; throws a `ConfigError` naming the key and the file. */
  credentials(): Credentials;
}

const CERTIFICATE = 'framework.http.ssl.certificate.file';
const KEY = 'framework.http.ssl.certificate.key-file';
const KEY_PASSWORD = 'framework.http.ssl.certificate.key-password';

/** PKCS#8 `ENCRYPTED PRIVATE KEY`, or a traditional key with `Proc-Type: 4,ENCRYPTED`. */
function isEncrypted(pem: Buffer): boolean {
  const text = pem.toString('latin1');
  return text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || text.includes('Proc-Type: 4,ENCRYPTED');
}

function readPem(key: string, path: string): Buffer {
  try {
    return nodeFs().readFileSync(path);
  } catch (error) {
    throw settingError(
      key,
      path,
      `a readable PEM file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** `undefined` without a certificate; the files are checked at once, so a start never goes on plain-only by mistake. */
export function tlsSettings(config: Config, directory: string): TlsSettings | undefined {
  const certificate = config.get(CERTIFICATE);
  const key = config.get(KEY);
  if (certificate === undefined && key === undefined) return undefined;
  if (certificate === undefined) throw settingError(CERTIFICATE, '', `set, since ${KEY} is (TLS needs both)`);
  if (key === undefined) throw settingError(KEY, '', `set, since ${CERTIFICATE} is (TLS needs both)`);
  const files = { certificate: nodePath().resolve(directory, certificate), key: nodePath().resolve(directory, key) };
  const passphrase = config.get(KEY_PASSWORD);
  const credentials = (): Credentials => {
    const read = { cert: readPem(CERTIFICATE, files.certificate), key: readPem(KEY, files.key), passphrase };
    try {
      nodeTls().createSecureContext(read);
    } catch (error) {
      // The password itself is never repeated in the message.
      if (isEncrypted(read.key)) {
        throw settingError(
          KEY_PASSWORD,
          passphrase === undefined ? '' : '(hidden)',
          `the password of the encrypted key ${files.key} (${passphrase === undefined ? 'none is set' : 'it does not decrypt it'})`,
        );
      }
      throw settingError(
        `${CERTIFICATE} and ${KEY}`,
        `${files.certificate}, ${files.key}`,
        `a PEM certificate and the private key that belongs to it (${(error as Error).message})`,
      );
    }
    return read;
  };
  credentials();
  return {
    port: config.get('framework.http.ssl-port'),
    http2: config.get('framework.http.http2'),
    insecureRequests: config.get('framework.http.insecure-requests'),
    credentials,
  };
}
