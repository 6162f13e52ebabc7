import { randomUUID } from 'node:crypto';
import { forward } from '../../_server/forward';
import { body, parsed, problem, refuseCrossSite, relay, signedOut, walletRoute, webSession } from '../../_server/http';
import { customer as customerRoute, externalAccounts, quotes, umaLookup } from '../../_server/routes';

// POST /wallet/api/quotes – {destination: {accountId} | {umaAddress}, amount, description?}: a
// quote paid from the signed-in customer's own wallet (the source is never the browser's to
// choose), to one of their own external accounts or to a UMA address.
export const POST = walletRoute(async (req: Request) => {
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
  let lookupId: string | undefined;
  let senderCustomerInfo: Record<string, unknown> | undefined;
  if (typeof d.accountId === 'string') {
    const own = await forward(s.platformId, externalAccounts, 'GET', '/customers/external-accounts', {
      query: { customerId: s.customerId, limit: '100' },
    });
    const ids = ((parsed(own).data ?? []) as { id: string }[]).map((a) => a.id);
    if (!ids.includes(d.accountId)) return problem(404, 'REFERENCE_NOT_FOUND', 'No such external account of yours');
    destination = { destinationType: 'ACCOUNT', accountId: d.accountId };
  } else if (typeof d.umaAddress === 'string' && d.umaAddress.length <= 255) {
    // A UMA payment starts with a look-up of the receiver, made for this customer.
    const found = await forward(s.platformId, umaLookup, 'GET', `/receiver/uma/${encodeURIComponent(d.umaAddress)}`, {
      params: { receiverUmaAddress: d.umaAddress },
      query: { customerId: s.customerId },
    });
    if (found.status !== 200) return relay(found);
    const lookup = parsed(found) as { lookupId: string; requiredPayerDataFields?: { name: string }[] };
    lookupId = lookup.lookupId;
    senderCustomerInfo = await payerData(s.platformId, s.customerId, lookup.requiredPayerDataFields ?? []);
    destination = { destinationType: 'UMA_ADDRESS', umaAddress: d.umaAddress };
  } else return problem(400, 'INVALID_INPUT', 'destination must name an accountId or a umaAddress');
  const description = typeof b?.value.description === 'string' ? b.value.description.slice(0, 500) : undefined;
  const request = {
    ...(lookupId ? { lookupId } : {}),
    source: { sourceType: 'ACCOUNT', accountId: s.accountId },
    destination,
    lockedCurrencySide: 'SENDING',
    ...(description ? { description } : {}),
    ...(senderCustomerInfo && Object.keys(senderCustomerInfo).length ? { senderCustomerInfo } : {}),
  };
  // The amount goes in as a JSON number with all its digits (no float in between).
  const text = JSON.stringify(request).replace(/}$/, `,"lockedCurrencyAmount":${amount}}`);
  return relay(await forward(s.platformId, quotes, 'POST', '/quotes', { body: text, idempotencyKey: randomUUID() }));
});

/**
 * What the receiver asks to know about the payer, from the customer's own record (the fields it
 * has; a field it lacks is left out and the API says which one is missing).
 */
async function payerData(platformId: string, customerId: string, fields: { name: string }[]) {
  if (!fields.length) return {};
  const c = parsed(
    await forward(platformId, customerRoute, 'GET', `/customers/${customerId}`, { params: { customerId } }),
  ) as Record<string, unknown> & { businessInfo?: { legalName?: string } };
  const known: Record<string, unknown> = {
    FULL_NAME: c.fullName ?? c.businessInfo?.legalName,
    EMAIL: c.email,
    PHONE_NUMBER: c.phoneNumber,
    BIRTH_DATE: c.birthDate,
    NATIONALITY: c.nationality,
    POSTAL_ADDRESS: c.address,
  };
  return Object.fromEntries(fields.filter((f) => known[f.name] !== undefined).map((f) => [f.name, known[f.name]]));
}
