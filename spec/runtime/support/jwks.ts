/** A local JWKS server for spec/runtime, and tokens signed by its key (jose, in the test's own process). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as JoseModule from 'jose';

const jose = require('jose') as typeof JoseModule;

export const ISSUER = 'https://issuer.example';
export const AUDIENCE = 'rxrest-runtimes';

/** Serves one RSA key's public half as a JWKS on 127.0.0.1 and signs tokens with its private half. */
export class JwksServer {
  #key: Awaited<ReturnType<typeof jose.generateKeyPair>> | undefined;
  #keys: JoseModule.JWK[] = [];
  readonly #server: Server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.#keys })),
  );

  /** Starts the server; its JWKS address. */
  async start(): Promise<string> {
    this.#key = await jose.generateKeyPair('RS256', { extractable: true });
    this.#keys = [{ ...(await jose.exportJWK(this.#key.publicKey)), kid: 'runtime', alg: 'RS256', use: 'sig' }];
    await new Promise<void>((done) => this.#server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/jwks`;
  }

  /** The settings an application needs to take this server's tokens. */
  settings(url: string): Record<string, string> {
    return {
      'framework.security.jwt.jwks-url': url,
      'framework.security.jwt.issuer': ISSUER,
      'framework.security.jwt.audience': AUDIENCE,
    };
  }

  /** A token for `sub` with `groups`, valid five minutes. */
  sign(sub: string, groups: string[]): Promise<string> {
    return new jose.SignJWT({ iss: ISSUER, aud: AUDIENCE, sub, groups })
      .setProtectedHeader({ alg: 'RS256', kid: 'runtime' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(this.#key!.privateKey);
  }

  close(): Promise<void> {
    return new Promise((done) => this.#server.close(() => done()));
  }
}
