import type { eventsOf } from '@/lib/events/outbox';

// Test helpers shared by the KYC tests of individuals.
export const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
export const complete = (fullName: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL',
  fullName,
  birthDate: '1990-01-15',
  nationality: 'US',
  idType: 'SSN',
  identifier: '123-45-6789',
  address,
  ...extra,
});

export type Event = Awaited<ReturnType<typeof eventsOf>>[number];
/** The types of the events about one customer: its own, and its verifications'. */
export const eventTypesAbout = (events: Event[], id: string) =>
  events.filter((e) => e.body.data.id === id || e.body.data.customerId === id).map((e) => e.type);
