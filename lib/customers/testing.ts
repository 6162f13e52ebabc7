// Request bodies for creating customers in tests.
export const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
export const individual = (fullName: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL',
  fullName,
  birthDate: '1990-01-15',
  nationality: 'US',
  address,
  ...extra,
});
export const business = (registrationNumber: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'BUSINESS',
  address,
  businessInfo: {
    legalName: 'Acme Corp',
    country: 'US',
    taxId: '12-3456789',
    incorporatedOn: '2015-03-01',
    registrationNumber,
  },
  ...extra,
});
