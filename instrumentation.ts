// Next.js calls register() once when a server process starts: start traces when an OTLP endpoint
// is configured, build the process's Corridor instance (its composition root: lib/boot.ts
// createCorridor), make it the app's one handle (read by the HTTP edge and anything that starts
// work outside a context), then bootstrap the sandbox and start the worker.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Traces (docs/operations.md): the OpenTelemetry SDK is loaded only when they are on; off,
  // Corridor's hooks (lib/core/tracing.ts) cost a property read each.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTracing } = await import('./lib/ops/tracing');
    startTracing();
  }
  const { createCorridor, boot } = await import('./lib/boot');
  const { setAppCorridor } = await import('./lib/core/context');
  const corridor = createCorridor({ processMetrics: true });
  setAppCorridor(corridor);
  if (process.env.CORRIDOR_SKIP_BOOT !== '1') await boot(corridor);
}
