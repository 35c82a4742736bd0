/** Conditional inclusion samples: a resource of the `dev` profile only, and one disabled by configuration. */
import { EndpointDisabled, GET, IfBuildProfile, Path } from '../../lib';

/** `/dev-info`: only in the `dev` profile (`FRAMEWORK_PROFILE=dev npm start`); 404 otherwise. */
@Path('dev-info')
@IfBuildProfile('dev')
export class DevInfoResource {
  @GET
  get(): string {
    return 'dev profile';
  }
}

/** `/beta`: removed at start-up while `samples.beta.disabled=true` (as application.properties sets it); 404 then. */
@Path('beta')
@EndpointDisabled({ name: 'samples.beta.disabled', stringValue: 'true' })
export class BetaResource {
  @GET
  get(): string {
    return 'beta';
  }
}

export const conditionalSampleClasses: Function[] = [DevInfoResource, BetaResource];
