import { describeConfiguration } from '../../lib/config/describe-configuration';
import { FRAMEWORK_KEYS } from '../../lib/config/schema';

describe('describeConfiguration', () => {
  it('covers every schema key exactly once, in schema order, plus the per-category level family', () => {
    const keys = describeConfiguration().map((setting) => setting.key);
    expect(keys).toEqual([...FRAMEWORK_KEYS, 'framework.log.category."<category>".level']);
  });

  it('gives every setting a description and an expected-value phrase', () => {
    for (const setting of describeConfiguration()) {
      expect(setting.description).not.toBe('');
      expect(setting.expected).not.toBe('');
    }
  });

  it('shows defaults as a user would write them', () => {
    const byKey = new Map(describeConfiguration().map((setting) => [setting.key, setting]));
    expect(byKey.get('framework.http.limits.max-body-size')?.default).toBe('10M');
    expect(byKey.get('framework.rest.sse.keep-alive')?.default).toBe('15s');
    expect(byKey.get('framework.http.compress-media-types')?.default).toBe(
      'text/html,text/plain,text/xml,text/css,text/javascript,application/javascript',
    );
    expect(byKey.get('framework.http.static.directory')?.default).toBeUndefined();
    expect(byKey.get('framework.http.port')?.expected).toBe('an integer from 0 to 65535');
  });
});
