import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { clockAdvanceRequest, clockState } from '@/lib/sandbox/schema';
import * as commands from '@/lib/sandbox/commands';

// POST /sandbox/clock/advance – fast-forward this platform's sandbox clock and run what fell due
const advance = commandEndpoint(
  {
    method: 'POST',
    path: '/sandbox/clock/advance',
    summary: 'Advance the sandbox clock',
    description:
      "Corridor extension. Moves this platform's sandbox time forward by `seconds` and runs the timed work that became due (settlements, expiries, returns, webhook retries) before answering, including work that work schedules for a time already reached and work the server's background worker had already taken up. If some is still running after 30 seconds it answers anyway, counting it in `jobsPending`.",
    tags: ['Sandbox'],
    answer: ok,
    sandboxOnly: true,
    extension: true,
    body: clockAdvanceRequest,
    responses: { 200: { description: 'Clock advanced', schema: clockState }, ...errors(400, 401, 403) },
  },
  commands.advance,
  ({ body }) => body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(advance);
