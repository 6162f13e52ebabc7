import { db } from './core/db';
import * as platforms from './platform/repository';
import { createPlatform } from './platform/service';
import * as tokens from './tokens/service';
import * as tokenRepo from './tokens/repository';
import { sha256Hex } from './auth/secrets';
import { startWorker } from './jobs/worker';
import { API_BASE } from './core/mode';
import { publicBaseUrl } from './core/mode';
import { ensureFirstStaff } from './staff/bootstrap';

// Server start (called from instrumentation.ts): make sure a sandbox platform exists, print how
// to reach it, and start the worker.
export async function boot(): Promise<void> {
  const baseUrl = publicBaseUrl();
  const envId = process.env.CORRIDOR_CLIENT_ID;
  const envSecret = process.env.CORRIDOR_CLIENT_SECRET;
  if ((envId && !envSecret) || (!envId && envSecret)) {
    console.warn('[corridor] CORRIDOR_CLIENT_ID and CORRIDOR_CLIENT_SECRET must be set together; ignoring them');
  }
  const known = envId && envSecret ? { clientId: envId, clientSecret: envSecret } : undefined;

  let platform = await platforms.findFirst();
  const lines: string[] = [];
  if (!platform) {
    const id = await createPlatform({ name: 'Sandbox platform' });
    platform = await platforms.findFirst();
    const t = await tokens.issue(id, 'Bootstrap token', ['VIEW', 'TRANSACT', 'MANAGE'], known);
    lines.push('Sandbox platform created. API credentials (all permissions) — the secret is shown only now:');
    lines.push(`  client id:     ${t.clientId}`);
    lines.push(`  client secret: ${t.clientSecret}`);
  } else if (known) {
    // Automation asked for known credentials: make sure they work on the existing platform.
    const existing = await tokenRepo.findForAuth(known.clientId);
    if (!existing)
      await tokens.issue(platform.id, 'Bootstrap token (from environment)', ['VIEW', 'TRANSACT', 'MANAGE'], known);
    else if (existing.secretHash !== sha256Hex(known.clientSecret)) {
      await db().apiToken.update({
        where: { id: existing.id },
        data: { secretHash: sha256Hex(known.clientSecret), updatedAt: new Date() },
      });
    }
    lines.push(`API credentials: client id ${known.clientId} (secret from CORRIDOR_CLIENT_SECRET)`);
  } else {
    lines.push('API credentials were printed at first start (or create more with POST /tokens).');
  }
  if (platform) lines.push(...(await ensureFirstStaff(platform.id, new URL(baseUrl).hostname)));
  lines.push(`  API base URL:  ${baseUrl}${API_BASE}`);
  lines.push(`  OpenAPI:       ${baseUrl}${API_BASE}/openapi.json`);
  lines.push(`  API reference: ${baseUrl}/docs`);
  lines.push(`  Console:       ${baseUrl}/console`);
  lines.push(`  Wallet:        ${baseUrl}/wallet`);
  console.log(`\n[corridor] ${lines.join('\n[corridor] ')}\n`);

  if (process.env.CORRIDOR_WORKER !== 'off') startWorker();
}
