import { z } from 'zod';
import { defineCommand } from '../core/command';
import { signedRequest } from '../core/fields';
import { exportRequest, internalAccountUpdate } from './schema';
import * as wallet from './wallet';

// The platform's operations on an embedded wallet (PATCH /internal-accounts/{id}, POST
// /internal-accounts/{id}/export): each answers a challenge first and acts on the retry the wallet
// holder signed, so the request as signed is part of the input. The holder's own wallet app runs
// the same domain calls through lib/wallet-web/credential-commands.ts.
export const updateWallet = defineCommand({
  name: 'internal-accounts.update',
  input: z.object({ id: z.string(), body: internalAccountUpdate, signed: signedRequest }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => wallet.updateWallet(actor.platformId, b.id, b.body, b.signed),
});

export const exportWallet = defineCommand({
  name: 'internal-accounts.export',
  input: z.object({ id: z.string(), body: exportRequest, signed: signedRequest }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => wallet.exportWallet(actor.platformId, b.id, b.body.clientPublicKey, b.signed),
});
