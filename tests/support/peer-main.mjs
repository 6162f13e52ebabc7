// Entry of a peer server process (tests/support/peer.ts): loads the TypeScript sources through
// Vite's module runner, as the test runner does, and prints the port it serves on.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const vite = await createServer({
  root,
  configFile: false,
  logLevel: 'error',
  resolve: { alias: { '@': root } },
  server: { middlewareMode: true, hmr: false, ws: false },
  appType: 'custom',
  optimizeDeps: { noDiscovery: true, include: [] },
});
const { serve } = await vite.ssrLoadModule('/tests/support/peer-server.ts');
const port = await serve();
process.stdout.write(`listening ${port}\n`);
process.on('SIGTERM', () => process.exit(0));
