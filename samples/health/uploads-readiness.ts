/** A sample readiness check: the instance is ready while its uploads directory can be written to. */
import { access, constants, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HealthCheckResponse, Readiness, type HealthCheck } from '../../lib';

@Readiness
export class UploadsReadiness implements HealthCheck {
  readonly #directory = resolve(process.cwd(), '.uploads');

  async call(): Promise<HealthCheckResponse> {
    const writable = await mkdir(this.#directory, { recursive: true })
      .then(() => access(this.#directory, constants.W_OK))
      .then(
        () => true,
        () => false,
      );
    return HealthCheckResponse.named('uploads-directory').status(writable).withData('directory', '.uploads').build();
  }
}
