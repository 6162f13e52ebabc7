import type { z } from 'zod';
import type { Command } from '../core/command';
import { cardIdParams, simulationResponse } from '../cards/schema';
import type { SimulationResult } from '../cards/simulate';
import { errors } from './docs';
import { accepted, commandEndpoint, type Endpoint } from './endpoint';

// The sandbox's card-network simulations (POST /sandbox/cards/{id}/simulate/...): ten operations
// that differ only in their message's name, body and the command they run
// (lib/cards/simulation-commands.ts). Each route file names its own path, summary, body and
// command; what they share is here.
export function cardSimulation<B extends z.ZodType>(
  def: { path: string; summary: string; body: B },
  command: Command<z.ZodType, SimulationResult>,
): Endpoint {
  return commandEndpoint(
    {
      method: 'POST',
      path: def.path,
      summary: def.summary,
      tags: ['Sandbox'],
      sandboxOnly: true,
      params: cardIdParams,
      body: def.body,
      answer: accepted,
      responses: {
        202: { description: 'Simulation accepted', schema: simulationResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    command,
    ({ params, raw }) => ({ id: params.id, body: raw.body }),
  );
}
