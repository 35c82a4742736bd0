/** A sample readiness check: the instance is ready while its uploads directory can be written to. */
import { HealthCheckResponse, Readiness, type HealthCheck } from '../../lib';

@Readiness
export class UploadsReadiness implements HealthCheck {
  async call(): Promise<HealthCheckResponse> {
    // Loaded when checked: the samples bundled for a Worker (which has no disk and never runs this) import no built-in.
    const { access, constants, mkdir } = process.getBuiltinModule('node:fs/promises');
    const directory = process.getBuiltinModule('node:path').resolve(process.cwd(), '.uploads');
    const writable = await mkdir(directory, { recursive: true })
      .then(() => access(directory, constants.W_OK))
      .then(
        () => true,
        () => false,
      );
    return HealthCheckResponse.named('uploads-directory').status(writable).withData('directory', '.uploads').build();
  }
}
