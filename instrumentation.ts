// Next.js calls register() once when a server starts: bootstrap the sandbox and start the worker.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.CORRIDOR_SKIP_BOOT !== '1') {
    const { boot } = await import('./lib/boot');
    await boot();
  }
}
