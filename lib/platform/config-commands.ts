import { z } from 'zod';
import { defineCommand } from '../core/command';
import { configUpdate } from './schema';
import * as platform from './service';

// The platform's configuration as commands (GET and PATCH /config).
export const getConfig = defineCommand({
  name: 'platform.config.get',
  input: z.object({}),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor) => platform.getConfig(actor.platformId),
});

export const updateConfig = defineCommand({
  name: 'platform.config.update',
  input: configUpdate,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => platform.updateConfig(actor.platformId, b),
});
