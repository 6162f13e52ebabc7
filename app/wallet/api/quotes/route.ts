import { randomUUID } from 'node:crypto';
import { forward } from '../../_server/forward';
import { body, parsed, problem, refuseCrossSite, relay, signedOut, webSession } from '../../_server/http';
import { externalAccounts, quotes } from '../../_server/routes';

// POST /wallet/api/quotes – {destination: {accountId} | {umaAddress}, amount, description?}: a
// quote paid from the signed-in customer's own wallet (the source is never the browser's to
// choose), to one of their own external accounts or to a UMA address.
export async function POST(req: Request) {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const b = await body(req);
  const d = (b?.value.destination ?? {}) as { accountId?: unknown; umaAddress?: unknown };
  const amount = typeof b?.value.amount === 'string' ? b.value.amount : '';
  if (!/^[1-9][0-9]{0,19}$/.test(amount))
    return problem(400, 'INVALID_INPUT', 'amount must be a positive whole number of the smallest unit');
  let destination: Record<string, unknown>;
  if (typeof d.accountId === 'string') {
    const own = await forward(s.platformId, externalAccounts, 'GET', '/customers/external-accounts', {
      query: { customerId: s.customerId, limit: '100' },
    });
    const ids = ((parsed(own).data ?? []) as { id: string }[]).map((a) => a.id);
    if (!ids.includes(d.accountId)) return problem(404, 'REFERENCE_NOT_FOUND', 'No such external account of yours');
    destination = { destinationType: 'ACCOUNT', accountId: d.accountId };
  } else if (typeof d.umaAddress === 'string' && d.umaAddress.length <= 255) {
    destination = { destinationType: 'UMA_ADDRESS', umaAddress: d.umaAddress };
  } else return problem(400, 'INVALID_INPUT', 'destination must name an accountId or a umaAddress');
  const description = typeof b?.value.description === 'string' ? b.value.description.slice(0, 500) : undefined;
  const request = {
    source: { sourceType: 'ACCOUNT', accountId: s.accountId },
    destination,
    lockedCurrencySide: 'SENDING',
    ...(description ? { description } : {}),
  };
  // The amount goes in as a JSON number with all its digits (no float in between).
  const text = JSON.stringify(request).replace(/}$/, `,"lockedCurrencyAmount":${amount}}`);
  return relay(await forward(s.platformId, quotes, 'POST', '/quotes', { body: text, idempotencyKey: randomUUID() }));
}
