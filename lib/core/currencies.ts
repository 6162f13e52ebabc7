// Currency facts: ISO 4217 minor units, plus the crypto assets the service carries.
// `decimals` is how many digits the smallest unit sits below the major unit.
export interface CurrencyInfo {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  crypto?: boolean;
}

const TABLE: CurrencyInfo[] = [
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2 },
  { code: 'BDT', name: 'Bangladeshi Taka', symbol: '৳', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  { code: 'BWP', name: 'Botswana Pula', symbol: 'P', decimals: 2 },
  { code: 'CAD', name: 'Canadian Dollar', symbol: 'CA$', decimals: 2 },
  { code: 'CNY', name: 'Chinese Yuan', symbol: '¥', decimals: 2 },
  { code: 'COP', name: 'Colombian Peso', symbol: 'COL$', decimals: 2 },
  { code: 'DKK', name: 'Danish Krone', symbol: 'kr', decimals: 2 },
  { code: 'EGP', name: 'Egyptian Pound', symbol: 'E£', decimals: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  { code: 'GBP', name: 'British Pound', symbol: '£', decimals: 2 },
  { code: 'GHS', name: 'Ghanaian Cedi', symbol: 'GH₵', decimals: 2 },
  { code: 'GTQ', name: 'Guatemalan Quetzal', symbol: 'Q', decimals: 2 },
  { code: 'HKD', name: 'Hong Kong Dollar', symbol: 'HK$', decimals: 2 },
  { code: 'HTG', name: 'Haitian Gourde', symbol: 'G', decimals: 2 },
  { code: 'IDR', name: 'Indonesian Rupiah', symbol: 'Rp', decimals: 2 },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  { code: 'JMD', name: 'Jamaican Dollar', symbol: 'J$', decimals: 2 },
  { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', decimals: 2 },
  { code: 'MWK', name: 'Malawian Kwacha', symbol: 'MK', decimals: 2 },
  { code: 'MXN', name: 'Mexican Peso', symbol: 'MX$', decimals: 2 },
  { code: 'MYR', name: 'Malaysian Ringgit', symbol: 'RM', decimals: 2 },
  { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2 },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2 },
  { code: 'PKR', name: 'Pakistani Rupee', symbol: '₨', decimals: 2 },
  { code: 'RWF', name: 'Rwandan Franc', symbol: 'FRw', decimals: 0 },
  { code: 'SGD', name: 'Singapore Dollar', symbol: 'S$', decimals: 2 },
  // The specification's SLV corridor (El Salvador) settles in US dollars.
  { code: 'SLV', name: 'El Salvador (US Dollar)', symbol: '$', decimals: 2 },
  { code: 'THB', name: 'Thai Baht', symbol: '฿', decimals: 2 },
  { code: 'TZS', name: 'Tanzanian Shilling', symbol: 'TSh', decimals: 2 },
  { code: 'UGX', name: 'Ugandan Shilling', symbol: 'USh', decimals: 0 },
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  { code: 'VND', name: 'Vietnamese Dong', symbol: '₫', decimals: 0 },
  { code: 'XAF', name: 'Central African CFA Franc', symbol: 'FCFA', decimals: 0 },
  { code: 'XOF', name: 'West African CFA Franc', symbol: 'CFA', decimals: 0 },
  { code: 'ZAR', name: 'South African Rand', symbol: 'R', decimals: 2 },
  { code: 'ZMW', name: 'Zambian Kwacha', symbol: 'ZK', decimals: 2 },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, crypto: true },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6, crypto: true },
  { code: 'USDT', name: 'Tether USD', symbol: 'USDT', decimals: 6, crypto: true },
];

const BY_CODE = new Map(TABLE.map((c) => [c.code, c]));

export const CURRENCY_CODES = TABLE.map((c) => c.code);
export const FIAT_CODES = TABLE.filter((c) => !c.crypto).map((c) => c.code);

export function currencyInfo(code: string): CurrencyInfo | undefined {
  return BY_CODE.get(code);
}

export function isKnownCurrency(code: string): boolean {
  return BY_CODE.has(code);
}

/** The wire shape of the reference's `Currency`. */
export function currencyObject(code: string) {
  const c = BY_CODE.get(code);
  return c
    ? { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals }
    : { code, name: code, symbol: code, decimals: 2 };
}

/** The wire shape of the reference's `CurrencyAmount`. */
export function currencyAmount(amount: bigint, code: string) {
  return { amount, currency: currencyObject(code) };
}
