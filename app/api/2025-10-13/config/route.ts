import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as config from '@/lib/platform/config-commands';
import { errors } from '@/lib/http/docs';
import { configUpdate, platformConfig } from '@/lib/platform/schema';

// GET /config – the platform's configuration
const getConfig = commandEndpoint(
  {
    method: 'GET',
    path: '/config',
    answer: ok,
    summary: 'Get platform configuration',
    tags: ['Platform Configuration'],
    responses: { 200: { description: 'Successful operation', schema: platformConfig }, ...errors(401, 403) },
  },
  config.getConfig,
  () => ({}),
);

// PATCH /config – update umaDomain, webhook endpoint, currencies, wallet and card branding, fees
const updateConfig = commandEndpoint(
  {
    method: 'PATCH',
    path: '/config',
    answer: ok,
    summary: 'Update platform configuration',
    tags: ['Platform Configuration'],
    body: configUpdate,
    responses: { 200: { description: 'Configuration updated', schema: platformConfig }, ...errors(400, 401, 403, 501) },
  },
  config.updateConfig,
  ({ body }) => body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getConfig, updateConfig);
