import { DomainError } from '@/lib/core/errors';
import { approvalQueue } from '../../_lib/approvals';
import { currentStaff } from '../../_lib/auth';

// GET /console/api/approvals?cursor= – one page of the approvals queue as JSON, for the console's
// client component (react-query refetches it after an approval or a rejection). Staff only.
export async function GET(req: Request) {
  const actor = await currentStaff();
  if (!actor) return Response.json({ error: 'Sign in to the console first' }, { status: 401 });
  const cursor = new URL(req.url).searchParams.get('cursor') ?? undefined;
  try {
    return Response.json(await approvalQueue(actor, cursor), { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'INVALID_INPUT')
      return Response.json({ error: err.message }, { status: 400 });
    throw err;
  }
}
