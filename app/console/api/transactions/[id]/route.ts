import { DomainError } from '@/lib/core/errors';
import * as transactions from '@/lib/payments/transactions/service';
import { read } from '../../../_lib/read';
import { currentStaff } from '../../../_lib/auth';

type Params = { params: Promise<{ id: string }> };

// GET /console/api/transactions/{id} – a payment's or a card transaction's state, for the
// console's detail pages to follow it live (they refresh the rest when it changes). Staff only.
export async function GET(_req: Request, { params }: Params) {
  const actor = await currentStaff();
  if (!actor) return Response.json({ error: 'Sign in to the console first' }, { status: 401 });
  const id = decodeURIComponent((await params).id);
  try {
    const t = await read(actor, () => transactions.getAny(actor.platformId, id));
    return Response.json(
      { id: t.id, status: t.status, updatedAt: new Date(t.updatedAt).toISOString() },
      { headers: { 'cache-control': 'no-store' } },
    );
  } catch (err) {
    if (err instanceof DomainError && err.code.endsWith('NOT_FOUND'))
      return Response.json({ error: `No transaction ${id}` }, { status: 404 });
    throw err;
  }
}
