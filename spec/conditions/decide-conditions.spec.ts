import {
  Application,
  EndpointDisabled,
  GET,
  IfBuildProfile,
  IfBuildProperty,
  Path,
  Provider,
  RestApplication,
  ServerRequestFilter,
  UnlessBuildProfile,
  UnlessBuildProperty,
  resolveConfig,
  RestResponse,
} from '../../lib';
import { buildConditionFilter, isEndpointDisabled } from '../../lib/conditions/decide-conditions';
import { findClassMeta } from '../../lib/metadata/store';
import { buildApp, call } from '../support/app';

@Path('dev-only')
@IfBuildProfile('dev')
class DevOnly {
  @GET get() {
    return 'dev';
  }
}
@Path('not-prod')
@UnlessBuildProfile('prod')
class NotProd {
  @GET get() {
    return 'not prod';
  }
}
@Path('any')
@IfBuildProfile({ anyOf: ['dev', 'test'] })
class AnyOf {
  @GET get() {
    return 'any';
  }
}
@Path('all')
@IfBuildProfile({ allOf: ['dev', 'cloud'] })
class AllOf {
  @GET get() {
    return 'all';
  }
}
@Path('flag')
@IfBuildProperty({ name: 'feature.flag', stringValue: 'on' })
class Flagged {
  @GET get() {
    return 'flag';
  }
}
@Path('flag-default')
@IfBuildProperty({ name: 'feature.other', stringValue: 'on', enableIfMissing: true })
class FlagDefault {
  @GET get() {
    return 'default';
  }
}
@Path('unless')
@UnlessBuildProperty({ name: 'feature.flag', stringValue: 'on' })
class Unless {
  @GET get() {
    return 'unless';
  }
}
@Path('unless-missing')
@UnlessBuildProperty({ name: 'feature.missing', stringValue: 'on', enableIfMissing: true })
class UnlessMissing {
  @GET get() {
    return 'unless missing';
  }
}

@Path('filtered')
class Filtered {
  @GET get() {
    return 'plain';
  }
}
@Provider()
@IfBuildProfile('dev')
class DevFilter {
  @ServerRequestFilter() stamp() {
    return RestResponse.ok('from dev filter');
  }
}

@Path('disabled')
@EndpointDisabled({ name: 'some.property', stringValue: 'disable' })
class Disabled {
  @GET get() {
    return 'on';
  }
}
@Path('disabled-missing')
@EndpointDisabled({ name: 'other.property', stringValue: 'x', disableIfMissing: true })
class DisabledIfMissing {
  @GET get() {
    return 'on';
  }
}

const all = [DevOnly, NotProd, AnyOf, AllOf, Flagged, FlagDefault, Unless, UnlessMissing];

async function statuses(app: ReturnType<typeof buildApp>): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const path of ['dev-only', 'not-prod', 'any', 'all', 'flag', 'flag-default', 'unless', 'unless-missing'])
    result[path] = (await call(app, `/${path}`)).status;
  return result;
}

describe('buildConditionFilter', () => {
  it('includes by profile and property in the default prod profile', async () => {
    expect(await statuses(buildApp(all))).toEqual({
      'dev-only': 404,
      'not-prod': 404,
      any: 404,
      all: 404,
      flag: 404,
      'flag-default': 200,
      unless: 404,
      'unless-missing': 200,
    });
  });

  it('follows framework.profile, one or several, and the property values', async () => {
    const dev = RestApplication.build({
      classes: all,
      config: resolveConfig({ profile: 'dev', overrides: { 'feature.flag': 'on' } }),
    });
    expect(await statuses(dev)).toEqual({
      'dev-only': 200,
      'not-prod': 200,
      any: 200,
      all: 404,
      flag: 200,
      'flag-default': 200,
      unless: 404,
      'unless-missing': 200,
    });
    const cloud = RestApplication.build({
      classes: all,
      config: resolveConfig({ profile: 'dev,cloud', overrides: { 'feature.flag': 'off', 'feature.other': 'off' } }),
    });
    expect(await statuses(cloud)).toMatchObject({ all: 200, flag: 404, 'flag-default': 404, unless: 200 });
  });

  it('applies to providers too', async () => {
    expect(await (await call(buildApp([Filtered, DevFilter]), '/filtered')).text()).toBe('plain');
    const dev = RestApplication.build({ classes: [Filtered, DevFilter], config: resolveConfig({ profile: 'dev' }) });
    expect(await (await call(dev, '/filtered')).text()).toBe('from dev filter');
  });

  it('is ignored when the Application lists its classes with getClasses()', async () => {
    class Listed extends Application {
      override getClasses() {
        return [DevOnly, Flagged];
      }
    }
    const app = buildApp([], {}, { application: new Listed() });
    expect((await call(app, '/dev-only')).status).toBe(200);
    expect((await call(app, '/flag')).status).toBe(200);
  });

  it('lets classes without conditions through', () => {
    const include = buildConditionFilter(resolveConfig());
    expect(include(Filtered, findClassMeta(Filtered)!)).toBe(true);
    expect(include(DevOnly, findClassMeta(DevOnly)!)).toBe(false);
  });
});

describe('isEndpointDisabled', () => {
  it('removes the class when the property equals the value (404), keeps it otherwise', async () => {
    expect((await call(buildApp([Disabled], { 'some.property': 'disable' }), '/disabled')).status).toBe(404);
    expect((await call(buildApp([Disabled], { 'some.property': 'enable' }), '/disabled')).status).toBe(200);
    expect((await call(buildApp([Disabled]), '/disabled')).status).toBe(200);
  });

  it('disables a class whose property is missing only with disableIfMissing', async () => {
    expect((await call(buildApp([DisabledIfMissing]), '/disabled-missing')).status).toBe(404);
    expect((await call(buildApp([DisabledIfMissing], { 'other.property': 'y' }), '/disabled-missing')).status).toBe(
      200,
    );
    expect(
      isEndpointDisabled(findClassMeta(DisabledIfMissing)!, resolveConfig({ overrides: { 'other.property': 'x' } })),
    ).toBe(true);
  });

  it('still applies to classes listed by getClasses()', async () => {
    class Listed extends Application {
      override getClasses() {
        return [Disabled];
      }
    }
    const app = buildApp([], { 'some.property': 'disable' }, { application: new Listed() });
    expect((await call(app, '/disabled')).status).toBe(404);
  });
});
