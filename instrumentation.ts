// Next.js calls register() once when a server process starts: plug the parts together (every
// process), then bootstrap the sandbox and start the worker (the first process only).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { wire } = await import('./lib/wiring');
  wire();
  if (process.env.CORRIDOR_SKIP_BOOT !== '1') {
    const { boot } = await import('./lib/boot');
    await boot();
  }
}
