/**
 * `GET /me` and `GET /admin/stats`: who the bearer token says the caller is, and a page for admins only. Tokens are
 * verified with the key `framework.security.jwt.*` names: the development key of this folder by default
 * (`npm run token` makes tokens for it), a JWKS from the environment in a real deployment.
 */
import { Authenticated, GET, Path, RolesAllowed, SecurityContext } from '../../lib';

const started = Date.now();

@Path('me')
export class MeResource {
  @GET
  @Authenticated
  me(security: SecurityContext): { name: string; roles: readonly string[] } {
    return { name: security.userPrincipal!.name, roles: security.roles };
  }
}

@Path('admin')
export class AdminResource {
  @GET
  @Path('stats')
  @RolesAllowed('admin')
  stats(): { uptimeSeconds: number } {
    return { uptimeSeconds: Math.floor((Date.now() - started) / 1000) };
  }
}

export const securitySampleClasses: Function[] = [MeResource, AdminResource];
