import { liveSnapshot } from '../../_lib/live';
import { currentStaff } from '../../_lib/auth';

// GET /console/api/live?overview=1 – the console's live figures as JSON (the approvals badge,
// the newest held action, and with overview=1 the overview's counters), polled by the layout.
// Staff only; never cached.
export async function GET(req: Request) {
  const actor = await currentStaff();
  if (!actor) return Response.json({ error: 'Sign in to the console first' }, { status: 401 });
  const overview = new URL(req.url).searchParams.get('overview') === '1';
  return Response.json(await liveSnapshot(actor, overview), { headers: { 'cache-control': 'no-store' } });
}
