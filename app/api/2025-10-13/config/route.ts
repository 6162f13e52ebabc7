import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { configUpdate, platformConfig } from '@/lib/platform/schema';
import * as platform from '@/lib/platform/service';

// GET /config – the platform's configuration
const getConfig = endpoint(
  {
    method: 'GET',
    path: '/config',
    summary: 'Get platform configuration',
    tags: ['Platform Configuration'],
    permission: 'VIEW',
    responses: { 200: { description: 'Successful operation', schema: platformConfig }, ...errors(401, 403) },
  },
  async ({ actor }) => ok(await platform.getConfig(actor.platformId)),
);

// PATCH /config – update umaDomain, webhook endpoint, currencies, wallet and card branding, fees
const updateConfig = endpoint(
  {
    method: 'PATCH',
    path: '/config',
    summary: 'Update platform configuration',
    tags: ['Platform Configuration'],
    permission: 'MANAGE',
    body: configUpdate,
    responses: { 200: { description: 'Configuration updated', schema: platformConfig }, ...errors(400, 401, 403, 501) },
  },
  async ({ actor, body }) => ok(await platform.updateConfig(actor.platformId, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getConfig, updateConfig);
