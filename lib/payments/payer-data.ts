import type { Tx } from '../core/db';
import { settingsOf } from '../platform/settings';
import type { Route } from './routing';

// What a receiving institution must know about the payer (requiredPayerDataFields). Quotes must
// carry every listed field in senderCustomerInfo: the specification says every field the lookup
// lists MUST be supplied, whatever its `mandatory` flag (a receiver's platform may list a field it
// does not strictly need, to have it; the sender supplies it all the same). UMA receivers on this
// service ask for what their platform configured (supportedCurrencies[].requiredCounterpartyFields);
// the sandbox counterparties and some bank corridors have fixed requirements.
export interface FieldDefinition {
  name: string;
  mandatory: boolean;
}

const CORRIDOR_REQUIREMENTS: Record<string, FieldDefinition[]> = {
  INR: [
    { name: 'FULL_NAME', mandatory: true },
    { name: 'POSTAL_ADDRESS', mandatory: true },
  ],
  NGN: [
    { name: 'FULL_NAME', mandatory: true },
    { name: 'BIRTH_DATE', mandatory: true },
  ],
  PHP: [{ name: 'FULL_NAME', mandatory: true }],
};

const SANDBOX_UMA: FieldDefinition[] = [{ name: 'FULL_NAME', mandatory: true }];

export async function requiredPayerData(route: Route, tx: Tx): Promise<FieldDefinition[]> {
  switch (route.kind) {
    case 'INTERNAL':
      return [];
    case 'EXTERNAL':
      return CORRIDOR_REQUIREMENTS[route.currency] ?? [];
    case 'UMA_SANDBOX':
      return SANDBOX_UMA;
    case 'UMA_CUSTOMER': {
      return (await settingsOf(route.platformId, tx)).currencies.get(route.currency)?.requiredCounterpartyFields ?? [];
    }
  }
}

/**
 * One list from several (a receiver taking several currencies, or a lookup's list beside the
 * chosen currency's): each field once, mandatory when any list makes it so.
 */
export function mergeFields(lists: FieldDefinition[][]): FieldDefinition[] {
  const byName = new Map<string, FieldDefinition>();
  for (const f of lists.flat())
    byName.set(f.name, { name: f.name, mandatory: f.mandatory || (byName.get(f.name)?.mandatory ?? false) });
  return [...byName.values()];
}

/** Field errors for every listed field missing from senderCustomerInfo. */
export function missingPayerData(required: FieldDefinition[], info: Record<string, unknown> | undefined) {
  return required
    .filter((f) => info?.[f.name] === undefined || info[f.name] === null || info[f.name] === '')
    .map((f) => ({ field: `senderCustomerInfo.${f.name}`, message: `is required by the receiving institution` }));
}
