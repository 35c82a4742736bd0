/**
 * `npm run token -- [sub] [role,role...] [seconds]`: prints a bearer token signed with the samples' development key,
 * for trying `/me` and `/admin/stats` (`curl -H "Authorization: Bearer $(npm run -s token -- alice admin)" ...`).
 * Development only: the private key is in the repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Jose from 'jose';

export const DEV_ISSUER = 'https://rxrest.dev/samples';
/** The audience the samples require (`framework.security.jwt.audience`). */
export const DEV_AUDIENCE = 'rxrest-samples';

/** A token for `sub` with `groups`, valid for `seconds`, signed with the development key. */
export async function devToken(sub: string, groups: readonly string[], seconds = 3600): Promise<string> {
  const jose = require('jose') as typeof Jose;
  const folder = __dirname.replace(/[\\/]dist[\\/]samples[\\/]security$/, '/samples/security');
  const key = await jose.importPKCS8(readFileSync(join(folder, 'dev-private-key.pem'), 'utf8'), 'ES256');
  return new jose.SignJWT({ groups: [...groups] })
    .setProtectedHeader({ alg: 'ES256' })
    .setSubject(sub)
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(key);
}

if (require.main === module) {
  const [sub = 'alice', roles = 'user', seconds = '3600'] = process.argv.slice(2);
  void devToken(sub, roles.split(',').filter(Boolean), Number(seconds)).then((token) =>
    process.stdout.write(`${token}\n`),
  );
}
