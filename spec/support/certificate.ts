// A self-signed certificate for localhost and 127.0.0.1, made at run time with the openssl CLI (Debian's package,
// installed by .ci/install-tools): no private key is ever committed.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SYNC_CHILD_MS } from './until';

export interface Certificate {
  readonly certificate: string;
  readonly key: string;
}

/** Writes `<name>.cert.pem` and `<name>.key.pem` (an ECDSA P-256 key, quick to make) into `directory`. */
export function selfSignedCertificate(directory: string, name = 'localhost'): Certificate {
  const certificate = join(directory, `${name}.cert.pem`);
  const key = join(directory, `${name}.key.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { stdio: 'ignore', timeout: SYNC_CHILD_MS },
  );
  return { certificate, key };
}

/** The key of `certificate` encrypted with `password` (AES-256, PKCS#8), as `framework.http.ssl.certificate.key-password` reads it. */
export function encryptedKey(certificate: Certificate, password: string): string {
  const encrypted = certificate.key.replace(/\.key\.pem$/, '.encrypted.key.pem');
  execFileSync(
    'openssl',
    [
      'pkcs8',
      '-topk8',
      '-in',
      certificate.key,
      '-v2',
      'aes-256-cbc',
      '-passout',
      `pass:${password}`,
      '-out',
      encrypted,
    ],
    { stdio: 'ignore', timeout: SYNC_CHILD_MS },
  );
  return encrypted;
}
