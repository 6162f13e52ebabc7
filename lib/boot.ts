import * as platforms from './platform/repository';
import { createPlatform } from './platform/service';
import * as tokens from './tokens/service';
import * as tokenRepo from './tokens/repository';
import { hashSecret, MIN_CHOSEN_SECRET_LENGTH, SECRET_HASH_VERSION, secretMatches } from './core/crypto/secrets';
import { now } from './core/clock';
import { startWorker } from './worker';
import { API_BASE } from './core/mode';
import { publicBaseUrl } from './core/mode';
import { ensureFirstStaff } from './staff/bootstrap';
import { db } from '@/lib/core/db';

export class BootError extends Error {}

/**
 * The bootstrap credentials the environment asks for, if any. An operator-chosen secret shorter
 * than MIN_CHOSEN_SECRET_LENGTH is refused: it would guard every permission of the platform.
 * (scripts/start.mjs applies the same rule before it starts anything.)
 */
export function bootstrapCredentials(env: Record<string, string | undefined> = process.env) {
  const clientId = env.CORRIDOR_CLIENT_ID;
  const clientSecret = env.CORRIDOR_CLIENT_SECRET;
  if (clientSecret && clientSecret.length < MIN_CHOSEN_SECRET_LENGTH) {
    throw new BootError(
      `CORRIDOR_CLIENT_SECRET is ${clientSecret.length} characters long; it must have at least ${MIN_CHOSEN_SECRET_LENGTH} ` +
        '(for example `openssl rand -base64 32`), or leave it unset to have a random secret generated',
    );
  }
  if ((clientId && !clientSecret) || (!clientId && clientSecret)) {
    console.warn('[corridor] CORRIDOR_CLIENT_ID and CORRIDOR_CLIENT_SECRET must be set together; ignoring them');
    return undefined;
  }
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

// Server start (called from instrumentation.ts): make sure a sandbox platform exists, print how
// to reach it, and start the worker.
export async function boot(): Promise<void> {
  const known = bootstrapCredentials();
  const baseUrl = publicBaseUrl();

  let platform = await platforms.findFirst();
  const lines: string[] = [];
  if (!platform) {
    const id = await createPlatform({ name: 'Sandbox platform' }, db());
    platform = await platforms.findFirst();
    const t = await tokens.issue(id, 'Bootstrap token', ['VIEW', 'TRANSACT', 'MANAGE'], known, db());
    // The one place a secret is printed: generated at first start, shown once to the operator.
    lines.push('Sandbox platform created. API credentials (all permissions) — the secret is shown only now:');
    lines.push(`  client id:     ${t.clientId}`);
    lines.push(`  client secret: ${known ? '(from CORRIDOR_CLIENT_SECRET)' : t.clientSecret}`);
  } else if (known) {
    // Automation asked for known credentials: make sure they work on the existing platform.
    const existing = await tokenRepo.findForAuth(known.clientId);
    if (!existing)
      await tokens.issue(
        platform.id,
        'Bootstrap token (from environment)',
        ['VIEW', 'TRANSACT', 'MANAGE'],
        known,
        db(),
      );
    else if (
      existing.secretHashVersion !== SECRET_HASH_VERSION ||
      !secretMatches(known.clientSecret, existing.secretHash, existing.secretHashVersion)
    ) {
      await tokenRepo.replaceSecretHash(existing.id, hashSecret(known.clientSecret), SECRET_HASH_VERSION, now());
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
