// Regulatory regions. Customers whose region (the reference's "regional identity and regulatory
// jurisdiction", an ISO 3166-1 alpha-2 code) is an SCA region need contact verification (email and
// phone) and Strong Customer Authentication; elsewhere those endpoints answer 409. The SCA regions
// are a setting: CORRIDOR_SCA_REGIONS (comma-separated country codes), by default the EEA.
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

let configured: { raw: string; regions: Set<string> } | null = null;

/** The SCA regions: CORRIDOR_SCA_REGIONS when set (read per call, so a changed setting applies at once). */
export function scaRegions(): ReadonlySet<string> {
  const raw = process.env.CORRIDOR_SCA_REGIONS?.trim();
  if (!raw) return EEA;
  if (configured?.raw !== raw)
    configured = {
      raw,
      regions: new Set(
        raw
          .split(',')
          .map((r) => r.trim().toUpperCase())
          .filter(Boolean),
      ),
    };
  return configured.regions;
}

export function isScaRegion(region: string | null | undefined): boolean {
  return !!region && scaRegions().has(region.toUpperCase());
}

export const requiresContactVerification = isScaRegion;
