import { file } from '@/lib/documents/service';
import { DomainError } from '@/lib/core/errors';
import { currentStaff } from '../../_lib/auth';

// GET /console/documents/{id} – a customer document's file, for the console's preview (staff only).
export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const actor = await currentStaff();
  if (!actor) return new Response('Sign in to the console first', { status: 401 });
  const { id } = await ctx.params;
  try {
    const f = await file(actor.platformId, decodeURIComponent(id));
    return new Response(f.content, {
      headers: {
        'content-type': f.contentType,
        'content-disposition': `inline; filename="${f.fileName.replace(/[^\w. -]/g, '_')}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (err) {
    if (err instanceof DomainError && err.code.endsWith('NOT_FOUND')) return new Response('Not found', { status: 404 });
    throw err;
  }
}
