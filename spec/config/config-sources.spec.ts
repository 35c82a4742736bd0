import { entriesSource, environmentSource, envName, lookup, splitProfiles } from '../../lib/config/config-sources';

describe('envName', () => {
  it('upper-cases and replaces every non-alphanumeric character with _', () => {
    expect(envName('framework.http.enable-compression')).toBe('FRAMEWORK_HTTP_ENABLE_COMPRESSION');
    expect(envName('%dev.framework.http.port')).toBe('_DEV_FRAMEWORK_HTTP_PORT');
    expect(envName('framework.log.category."rxrest.params".level')).toBe(
      'FRAMEWORK_LOG_CATEGORY__RXREST_PARAMS__LEVEL',
    );
  });
});

describe('splitProfiles', () => {
  it('separates one or several profiles from the key', () => {
    expect(splitProfiles('%dev.a.b')).toEqual({ profiles: ['dev'], key: 'a.b' });
    expect(splitProfiles('%dev,test.a')).toEqual({ profiles: ['dev', 'test'], key: 'a' });
    expect(splitProfiles('a.b')).toEqual({ profiles: [], key: 'a.b' });
  });
});

describe('entriesSource', () => {
  it('answers a multi-profile entry for each of its profiles and names its source', () => {
    const source = entriesSource([['%dev,test.k', 'v']], 'file.properties');
    expect(source.read('%dev.k')).toEqual({ value: 'v', source: 'file.properties' });
    expect(source.read('%test.k')?.value).toBe('v');
    expect(source.read('k')).toBeUndefined();
  });
});

describe('environmentSource', () => {
  it('finds a key by its exact name or its environment name, reporting the variable', () => {
    const source = environmentSource({ FRAMEWORK_HTTP_PORT: '1', 'my.key': '2' });
    expect(source.read('framework.http.port')).toEqual({ value: '1', source: 'FRAMEWORK_HTTP_PORT' });
    expect(source.read('my.key')).toEqual({ value: '2', source: 'my.key' });
    expect([...source.keys()]).toEqual([]);
  });

  it('takes a snapshot, so later changes to the environment object are not seen', () => {
    const env: NodeJS.ProcessEnv = { A: '1' };
    const source = environmentSource(env);
    env['A'] = '2';
    expect(source.read('a')?.value).toBe('1');
  });
});

describe('lookup', () => {
  const high = entriesSource([['k', 'high']], 'high');
  const low = entriesSource(
    [
      ['%dev.k', 'low-dev'],
      ['k', 'low'],
    ],
    'low',
  );

  it('prefers the profile key within a source', () => {
    expect(lookup([low], 'k', 'dev')?.value).toBe('low-dev');
    expect(lookup([low], 'k', 'prod')?.value).toBe('low');
  });

  it('lets a plain key of a higher source beat a profile key of a lower one', () => {
    expect(lookup([high, low], 'k', 'dev')).toEqual({ value: 'high', source: 'high' });
  });
});
