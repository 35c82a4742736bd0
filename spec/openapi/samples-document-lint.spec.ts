import { buildSamples } from '../../samples/app';
import { lintOpenApi } from '../support/lint-openapi';
import { tempDir } from '../support/temp-dir';
import { validateOpenApi } from '../support/validate-openapi';

describe("the samples' OpenAPI document", () => {
  const document = buildSamples({}).openapi();
  const directory = tempDir('openapi-lint');

  it('validates against the official OpenAPI 3.2 schema', () => {
    expect(validateOpenApi(document)).toEqual({ valid: true, version: '3.2' });
  });

  it("lints clean under Redocly's recommended rules", () => {
    const problems = lintOpenApi(document, directory).map(
      (problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
  });
});
