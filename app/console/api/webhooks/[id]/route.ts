import { getDelivery } from '@/lib/webhooks/log';
import { DomainError } from '@/lib/core/errors';
import { stringifyJson } from '@/lib/core/json';
import { currentStaff } from '../../../_lib/auth';
import { read } from '../../../_lib/read';

// GET /console/api/webhooks/{id} – one webhook event with its attempts, as JSON for the console's
// client components (react-query polls it while a replay is on its way). Staff only.
export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const actor = await currentStaff();
  if (!actor) return Response.json({ error: 'Sign in to the console first' }, { status: 401 });
  const { id } = await ctx.params;
  try {
    const d = await read(actor, () => getDelivery(actor.platformId, decodeURIComponent(id)));
    return new Response(stringifyJson({ ...d, body: stringifyJson(d.body) }), {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  } catch (err) {
    if (err instanceof DomainError && err.code.endsWith('NOT_FOUND'))
      return Response.json({ error: err.message }, { status: 404 });
    throw err;
  }
}
