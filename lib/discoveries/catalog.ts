import { railsFor, type PaymentRail } from '../rails/catalog';

// Receiving institutions per corridor (country + currency): the banks and payment providers an
// external account can name as `bankName`. Each institution is reached over rails of its currency
// from lib/rails/catalog.ts: banks over the currency's bank rails (UPI/NEFT/RTGS for INR, SPEI for
// MXN, PIX for BRL, SEPA for EUR...), mobile-money operators over MOBILE_MONEY where the rail
// catalog offers it (the East, West and Central African corridors). `bankName` is the canonical
// name, unique across the catalog; `displayName` is what a person reads.
export interface Institution {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
  rails: PaymentRail[];
}

type Names = (string | [bankName: string, displayName: string])[];

function bankRails(currency: string): PaymentRail[] {
  return railsFor(currency)
    .map((r) => r.rail)
    .filter((r) => r !== 'MOBILE_MONEY');
}

function make(country: string, currency: string, names: Names, rails: PaymentRail[]): Institution[] {
  return names.map((n) => {
    const [bankName, displayName] = typeof n === 'string' ? [n, n] : n;
    return { bankName, displayName, country, currency, rails };
  });
}

const banks = (country: string, currency: string, names: Names) => make(country, currency, names, bankRails(currency));
const mobile = (country: string, currency: string, names: Names) => make(country, currency, names, ['MOBILE_MONEY']);

export const INSTITUTIONS: Institution[] = [
  ...banks('AE', 'AED', [
    'Emirates NBD',
    ['FAB', 'First Abu Dhabi Bank'],
    ['ADCB', 'Abu Dhabi Commercial Bank'],
    'Dubai Islamic Bank',
    'Mashreq',
  ]),
  ...banks('BD', 'BDT', ['Sonali Bank', 'BRAC Bank', 'Dutch-Bangla Bank', 'Islami Bank Bangladesh', 'City Bank']),
  ...banks('BR', 'BRL', [
    ['Itau Unibanco', 'Itaú Unibanco'],
    'Banco do Brasil',
    'Bradesco',
    ['Caixa Economica Federal', 'Caixa Econômica Federal'],
    'Nubank',
    'Santander Brasil',
  ]),
  ...banks('BW', 'BWP', [
    'First National Bank Botswana',
    'Absa Bank Botswana',
    'Stanbic Bank Botswana',
    'Standard Chartered Botswana',
  ]),
  ...banks('CA', 'CAD', [
    ['RBC', 'RBC Royal Bank'],
    'TD Canada Trust',
    'Scotiabank',
    ['BMO', 'BMO Bank of Montreal'],
    'CIBC',
    'Desjardins',
  ]),
  ...banks('CN', 'CNY', [
    ['ICBC', 'Industrial and Commercial Bank of China'],
    'China Construction Bank',
    'Bank of China',
    'Agricultural Bank of China',
    'China Merchants Bank',
  ]),
  ...banks('CO', 'COP', ['Bancolombia', 'Banco de Bogota', 'Davivienda', 'BBVA Colombia', 'Nequi']),
  ...banks('DK', 'DKK', ['Danske Bank', 'Nordea Danmark', 'Jyske Bank', 'Sydbank']),
  ...banks('EG', 'EGP', [
    'National Bank of Egypt',
    'Banque Misr',
    ['CIB Egypt', 'Commercial International Bank'],
    'QNB Alahli',
  ]),
  // The euro corridor spans the SEPA countries; a few of the largest banks of each.
  ...banks('DE', 'EUR', ['Deutsche Bank', 'Commerzbank', 'N26']),
  ...banks('FR', 'EUR', ['BNP Paribas', 'Societe Generale', 'Credit Agricole']),
  ...banks('ES', 'EUR', ['Banco Santander', 'BBVA', 'CaixaBank']),
  ...banks('IT', 'EUR', ['Intesa Sanpaolo', 'UniCredit']),
  ...banks('NL', 'EUR', ['ING', 'Rabobank', 'ABN AMRO']),
  ...banks('IE', 'EUR', ['AIB', 'Bank of Ireland']),
  ...banks('PT', 'EUR', [['Caixa Geral de Depositos', 'Caixa Geral de Depósitos'], 'Millennium bcp']),
  ...banks('BE', 'EUR', ['KBC', 'Belfius']),
  ...banks('AT', 'EUR', ['Erste Bank', 'Raiffeisen Bank International']),
  ...banks('GB', 'GBP', ['Barclays', 'HSBC UK', 'Lloyds Bank', 'NatWest', 'Santander UK', 'Monzo']),
  ...mobile('GH', 'GHS', [
    ['MTN Mobile Money Ghana', 'MTN MoMo'],
    'Telecel Cash',
    ['AT Money', 'AT Money (AirtelTigo)'],
  ]),
  ...banks('GH', 'GHS', ['GCB Bank', 'Ecobank Ghana', 'Stanbic Bank Ghana']),
  ...banks('GT', 'GTQ', [
    'Banco Industrial',
    'Banrural',
    ['BAM', 'Banco Agromercantil de Guatemala'],
    'Banco G&T Continental',
  ]),
  ...banks('HK', 'HKD', [
    'HSBC Hong Kong',
    'Hang Seng Bank',
    'Bank of China (Hong Kong)',
    'Standard Chartered Hong Kong',
  ]),
  ...banks('HT', 'HTG', ['Unibank', 'Sogebank', ['BNC', 'Banque Nationale de Credit']]),
  ...banks('ID', 'IDR', ['Bank Central Asia', 'Bank Mandiri', 'Bank Rakyat Indonesia', 'Bank Negara Indonesia']),
  // Banks reachable by UPI and by IFSC over NEFT/RTGS.
  ...banks('IN', 'INR', [
    ['SBI', 'State Bank of India'],
    'HDFC Bank',
    'ICICI Bank',
    'Axis Bank',
    'Kotak Mahindra Bank',
    'Punjab National Bank',
  ]),
  ...banks('JM', 'JMD', [['NCB', 'National Commercial Bank Jamaica'], 'Scotiabank Jamaica', 'JN Bank', 'Sagicor Bank']),
  ...mobile('KE', 'KES', [['M-PESA', 'M-PESA (Safaricom)'], 'Airtel Money Kenya']),
  ...banks('KE', 'KES', ['Equity Bank Kenya', 'KCB Bank Kenya', 'Co-operative Bank of Kenya']),
  ...mobile('MW', 'MWK', ['Airtel Money Malawi', ['TNM Mpamba', 'TNM Mpamba']]),
  ...banks('MW', 'MWK', ['National Bank of Malawi', 'Standard Bank Malawi']),
  // SPEI participants.
  ...banks('MX', 'MXN', ['BBVA Mexico', 'Banorte', 'Santander Mexico', 'Banamex', 'HSBC Mexico', 'Banco Azteca']),
  ...banks('MY', 'MYR', ['Maybank', 'CIMB Bank', 'Public Bank', 'RHB Bank', 'Hong Leong Bank']),
  ...banks('NG', 'NGN', [
    'Access Bank',
    ['GTBank', 'Guaranty Trust Bank'],
    'Zenith Bank',
    'First Bank of Nigeria',
    ['UBA', 'United Bank for Africa'],
    'OPay',
    'Moniepoint',
  ]),
  // InstaPay/PESONet participants, e-wallets included.
  ...banks('PH', 'PHP', [
    'BDO Unibank',
    ['BPI', 'Bank of the Philippine Islands'],
    'Metrobank',
    'Land Bank of the Philippines',
    'GCash',
    'Maya',
  ]),
  ...banks('PK', 'PKR', [['HBL', 'Habib Bank Limited'], 'MCB Bank', ['UBL', 'United Bank Limited'], 'Meezan Bank']),
  ...mobile('RW', 'RWF', [['MTN MoMo Rwanda', 'MTN Mobile Money Rwanda'], 'Airtel Money Rwanda']),
  ...banks('RW', 'RWF', ['Bank of Kigali', 'Equity Bank Rwanda']),
  ...banks('SG', 'SGD', ['DBS Bank', 'OCBC Bank', ['UOB', 'United Overseas Bank']]),
  // El Salvador settles in US dollars; its corridor has its own code (SLV_ACCOUNT).
  ...banks('SV', 'SLV', [
    ['Banco Cuscatlan', 'Banco Cuscatlán'],
    ['Banco Agricola', 'Banco Agrícola'],
    ['BAC El Salvador', 'BAC Credomatic El Salvador'],
    'Davivienda El Salvador',
  ]),
  ...banks('TH', 'THB', ['Bangkok Bank', 'Kasikornbank', 'Siam Commercial Bank', 'Krungthai Bank']),
  ...mobile('TZ', 'TZS', [
    ['M-Pesa Tanzania', 'Vodacom M-Pesa'],
    ['Mixx by Yas', 'Mixx by Yas (Tigo Pesa)'],
    'Airtel Money Tanzania',
  ]),
  ...banks('TZ', 'TZS', ['CRDB Bank', 'NMB Bank']),
  ...mobile('UG', 'UGX', [['MTN MoMo Uganda', 'MTN Mobile Money Uganda'], 'Airtel Money Uganda']),
  ...banks('UG', 'UGX', ['Stanbic Bank Uganda', 'Centenary Bank']),
  ...banks('US', 'USD', [
    ['Chase Bank', 'JPMorgan Chase'],
    'Bank of America',
    'Wells Fargo',
    'Citibank',
    'U.S. Bank',
    'Capital One',
  ]),
  ...banks('VN', 'VND', ['Vietcombank', 'VietinBank', 'BIDV', 'Techcombank', 'MB Bank']),
  // Central African CFA franc: CEMAC countries.
  ...mobile('CM', 'XAF', [['MTN MoMo Cameroon', 'MTN Mobile Money Cameroon'], 'Orange Money Cameroon']),
  ...banks('CM', 'XAF', ['Afriland First Bank', 'Societe Generale Cameroun']),
  ...mobile('GA', 'XAF', ['Airtel Money Gabon', 'Moov Money Gabon']),
  ...banks('GA', 'XAF', ['BGFIBank Gabon']),
  ...mobile('CG', 'XAF', [['MTN MoMo Congo', 'MTN Mobile Money Congo'], 'Airtel Money Congo']),
  ...mobile('TD', 'XAF', ['Airtel Money Tchad', 'Moov Money Tchad']),
  // West African CFA franc: UEMOA countries.
  ...mobile('SN', 'XOF', ['Orange Money Senegal', 'Wave Senegal', 'Free Money Senegal']),
  ...banks('SN', 'XOF', ['Ecobank Senegal', 'CBAO Senegal']),
  ...mobile('CI', 'XOF', [
    "Orange Money Cote d'Ivoire",
    ["MTN MoMo Cote d'Ivoire", "MTN Mobile Money Côte d'Ivoire"],
    "Moov Money Cote d'Ivoire",
    "Wave Cote d'Ivoire",
  ]),
  ...banks('CI', 'XOF', ["Societe Generale Cote d'Ivoire"]),
  ...mobile('BJ', 'XOF', [['MTN MoMo Benin', 'MTN Mobile Money Bénin'], 'Moov Money Benin']),
  ...mobile('BF', 'XOF', ['Orange Money Burkina Faso', 'Moov Money Burkina Faso']),
  ...mobile('ML', 'XOF', ['Orange Money Mali', 'Moov Money Mali']),
  ...mobile('TG', 'XOF', [
    ['Flooz Togo', 'Moov Africa Flooz'],
    ['T-Money', 'T-Money (Togocom)'],
  ]),
  ...banks('ZA', 'ZAR', ['Standard Bank', ['FNB', 'First National Bank'], 'Absa Bank', 'Nedbank', 'Capitec Bank']),
  ...mobile('ZM', 'ZMW', [['MTN MoMo Zambia', 'MTN Mobile Money Zambia'], 'Airtel Money Zambia', 'Zamtel Kwacha']),
  ...banks('ZM', 'ZMW', [['Zanaco', 'Zambia National Commercial Bank'], 'Stanbic Bank Zambia']),
];

/** The institution an external account names, matched without regard to case. */
export function findInstitution(currency: string, bankName: string): Institution | undefined {
  const name = bankName.trim().toLowerCase();
  return INSTITUTIONS.find((i) => i.currency === currency && i.bankName.toLowerCase() === name);
}
