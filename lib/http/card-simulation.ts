import type { z } from 'zod';
import { cardIdParams, simulationResponse } from '../cards/schema';
import type { SimulationResult } from '../cards/simulate';
import { errors } from './docs';
import { accepted, endpoint, type Endpoint } from './endpoint';

// The sandbox's card-network simulations (POST /sandbox/cards/{id}/simulate/...): ten operations
// that differ only in their message's name, body and the simulation they run. Each route file
// names its own path, summary, body and call; what they share is here.
export function cardSimulation<B extends z.ZodType>(
  def: { path: string; summary: string; body: B },
  run: (platformId: string, cardId: string, body: z.output<B>) => Promise<SimulationResult>,
): Endpoint {
  return endpoint(
    {
      method: 'POST',
      path: def.path,
      summary: def.summary,
      tags: ['Sandbox'],
      permission: 'TRANSACT',
      sandboxOnly: true,
      params: cardIdParams,
      body: def.body,
      idempotent: true,
      answer: accepted,
      responses: {
        202: { description: 'Simulation accepted', schema: simulationResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    async ({ actor, params, body }) => run(actor.platformId, params.id, body),
  );
}
