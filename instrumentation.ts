// Next.js calls register() once when a server process starts: build the process's Corridor
// instance (its composition root: lib/boot.ts createCorridor), make it the app's one handle (read
// by the HTTP edge and anything that starts work outside a context), then bootstrap the sandbox
// and start the worker.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { createCorridor, boot } = await import('./lib/boot');
  const { setAppCorridor } = await import('./lib/core/context');
  const corridor = createCorridor({ processMetrics: true });
  setAppCorridor(corridor);
  if (process.env.CORRIDOR_SKIP_BOOT !== '1') await boot(corridor);
}
