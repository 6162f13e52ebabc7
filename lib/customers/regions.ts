// Regulatory regions. Customers in the EEA need contact verification (email and phone) and Strong
// Customer Authentication; elsewhere those endpoints answer 409.
const EEA = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
]);

export function isScaRegion(region: string | null | undefined): boolean {
  return !!region && EEA.has(region);
}

export const requiresContactVerification = isScaRegion;
