/** Jest global setup: notes the time the run starts, so that the teardown can tell which temp folders it made. */
export default function globalSetup(): void {
  (globalThis as { rxrestTestStart?: number }).rxrestTestStart = Date.now();
}
