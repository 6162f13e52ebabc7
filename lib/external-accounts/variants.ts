import { z } from 'zod';
import { bankBeneficiary, type IndividualOverrides } from './beneficiary';
import { countryCode, phoneNumber } from '../core/fields';

// The bank-account variants of accountInfo, one per `<CCY>_ACCOUNT` plus SWIFT_ACCOUNT, with
// their fields exactly as the reference declares them (<Ccy>AccountInfoBase): required fields,
// patterns, lengths, enums. Where the reference says "required fields depend on the selected
// paymentRails", `railFields` lists each rail's fields: at least one rail must be complete, and
// the account's paymentRails (response) are the complete ones.
const str = (min: number, max: number) => z.string().min(min).max(max);
const pat = (re: RegExp, min: number, max: number) => z.string().min(min).max(max).regex(re, `must match ${re.source}`);

const swiftCode = () => pat(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 8, 11);
const phone = () => pat(/^\+[0-9]{6,14}$/, 7, 15);
const bankName = () => str(1, 255);
const accountNumber = () => str(1, 34);
const bankAccountType = () => z.enum(['CHECKING', 'SAVINGS']);
const branchCode = () => pat(/^[0-9]{5}$/, 5, 5);
const provider = () => str(1, 255);
const ibanAny = () => pat(/^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/, 15, 34);

export interface BankVariant {
  accountType: string;
  /** Currencies the variant carries. */
  currencies: string[];
  fields: Record<string, z.ZodType>;
  /** The response's paymentRails enum, in the reference's order. */
  rails: string[];
  /** Per rail, the fields it needs (absent: every rail applies and the declared fields suffice). */
  railFields?: Record<string, string[]>;
  individual?: IndividualOverrides;
  /** Fields that name the account, first present wins (the sandbox suffix is read from it). */
  primary: string[];
}

const BT = 'BANK_TRANSFER';
const MM = 'MOBILE_MONEY';
const btOrMm = (bt: string[], mm: string[]) => ({ [BT]: bt, [MM]: mm });
const mobileMoney = (
  ccy: string,
  phoneField: z.ZodType = phone(),
  extra: Record<string, z.ZodType> = {},
): BankVariant => ({
  accountType: `${ccy}_ACCOUNT`,
  currencies: [ccy],
  fields: { phoneNumber: phoneField, provider: provider(), ...extra },
  rails: [MM],
  primary: ['phoneNumber'],
});
const swiftBank = (ccy: string, bankNameRequired = true): BankVariant => ({
  accountType: `${ccy}_ACCOUNT`,
  currencies: [ccy],
  fields: {
    bankName: bankNameRequired ? bankName() : bankName().optional(),
    accountNumber: accountNumber(),
    swiftCode: swiftCode(),
  },
  rails: ccy === 'SGD' ? ['PAYNOW', 'FAST', BT] : [BT],
  primary: ['accountNumber'],
});
const bankOrMobile = (ccy: string): BankVariant => ({
  accountType: `${ccy}_ACCOUNT`,
  currencies: [ccy],
  fields: { accountNumber: accountNumber().optional(), bankName: bankName(), phoneNumber: phone().optional() },
  rails: [BT, MM],
  railFields: btOrMm(['accountNumber', 'bankName'], ['bankName', 'phoneNumber']),
  primary: ['accountNumber', 'phoneNumber'],
});

export const BANK_VARIANTS: BankVariant[] = [
  {
    accountType: 'AED_ACCOUNT',
    currencies: ['AED'],
    fields: { iban: pat(/^AE[0-9]{21}$/, 23, 23), swiftCode: swiftCode().optional() },
    rails: [BT],
    primary: ['iban'],
  },
  {
    accountType: 'BDT_ACCOUNT',
    currencies: ['BDT'],
    fields: {
      accountNumber: accountNumber().optional(),
      bankName: bankName(),
      branchCode: branchCode().optional(),
      swiftCode: swiftCode().optional(),
      phoneNumber: phone().optional(),
    },
    rails: [BT, MM],
    railFields: btOrMm(['accountNumber', 'bankName'], ['bankName', 'phoneNumber']),
    primary: ['accountNumber', 'phoneNumber'],
  },
  {
    accountType: 'BRL_ACCOUNT',
    currencies: ['BRL'],
    fields: {
      pixKey: str(1, 77),
      pixKeyType: z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM']),
      taxId: pat(/^[0-9]{11,14}$/, 11, 14),
    },
    rails: ['PIX'],
    primary: ['pixKey'],
  },
  mobileMoney('BWP'),
  {
    accountType: 'CAD_ACCOUNT',
    currencies: ['CAD'],
    fields: { bankCode: pat(/^[0-9]{3}$/, 3, 3), branchCode: branchCode(), accountNumber: pat(/^[0-9]{7,12}$/, 7, 12) },
    rails: [BT],
    individual: { registrationNumber: z.string().trim().min(1).max(64).optional() },
    primary: ['accountNumber'],
  },
  // BANK_TRANSFER to China is business-to-business only (checked in accountInfoRules).
  bankOrMobile('CNY'),
  {
    accountType: 'COP_ACCOUNT',
    currencies: ['COP'],
    fields: {
      accountNumber: accountNumber().optional(),
      bankAccountType: bankAccountType().optional(),
      bankName: bankName(),
      phoneNumber: phone().optional(),
    },
    rails: [BT, MM],
    railFields: btOrMm(['accountNumber', 'bankAccountType', 'bankName'], ['bankName', 'phoneNumber']),
    individual: {
      documentType: z.enum(['CC', 'CE', 'TI', 'NIT', 'PP']).optional(),
      documentNumber: str(1, 50).optional(),
    },
    primary: ['accountNumber', 'phoneNumber'],
  },
  {
    accountType: 'DKK_ACCOUNT',
    currencies: ['DKK'],
    fields: { iban: pat(/^DK[0-9]{16}$/, 18, 18), swiftCode: swiftCode().optional() },
    rails: ['SEPA', 'SEPA_INSTANT'],
    primary: ['iban'],
  },
  {
    accountType: 'EGP_ACCOUNT',
    currencies: ['EGP'],
    fields: { iban: pat(/^EG[0-9]{27}$/, 29, 29).optional(), bankName: bankName(), phoneNumber: phone().optional() },
    rails: [BT, MM],
    railFields: btOrMm(['bankName', 'iban'], ['bankName', 'phoneNumber']),
    primary: ['iban', 'phoneNumber'],
  },
  {
    accountType: 'EUR_ACCOUNT',
    currencies: ['EUR'],
    fields: { iban: ibanAny(), swiftCode: swiftCode().optional() },
    rails: ['SEPA', 'SEPA_INSTANT'],
    individual: { countryOfResidence: countryCode },
    primary: ['iban'],
  },
  {
    accountType: 'GBP_ACCOUNT',
    currencies: ['GBP'],
    fields: { sortCode: pat(/^[0-9]{6}$/, 6, 6), accountNumber: pat(/^[0-9]{8}$/, 8, 8) },
    rails: ['FASTER_PAYMENTS'],
    primary: ['accountNumber'],
  },
  bankOrMobile('GHS'),
  {
    accountType: 'GTQ_ACCOUNT',
    currencies: ['GTQ'],
    fields: { accountNumber: accountNumber(), bankAccountType: bankAccountType(), bankName: bankName() },
    rails: [BT],
    individual: { phoneNumber, countryOfResidence: countryCode },
    primary: ['accountNumber'],
  },
  swiftBank('HKD'),
  {
    accountType: 'HTG_ACCOUNT',
    currencies: ['HTG'],
    fields: { phoneNumber: phone() },
    rails: [MM],
    primary: ['phoneNumber'],
  },
  { ...swiftBank('IDR'), fields: { ...swiftBank('IDR').fields, phoneNumber: pat(/^\+62[0-9]{9,12}$/, 7, 15) } },
  {
    accountType: 'INR_ACCOUNT',
    currencies: ['INR'],
    fields: {
      vpa: pat(/^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/, 3, 255).optional(),
      accountNumber: pat(/^[0-9]{9,18}$/, 9, 18).optional(),
      ifsc: pat(/^[A-Z]{4}0[A-Z0-9]{6}$/, 11, 11).optional(),
      rail: str(1, 32).optional(),
      bankName: bankName().optional(),
    },
    rails: ['UPI', 'NEFT', 'RTGS'],
    railFields: { UPI: ['vpa'], NEFT: ['accountNumber', 'ifsc', 'rail'], RTGS: ['accountNumber', 'ifsc', 'rail'] },
    primary: ['accountNumber', 'vpa'],
  },
  {
    accountType: 'JMD_ACCOUNT',
    currencies: ['JMD'],
    fields: {
      accountNumber: accountNumber(),
      branchCode: branchCode(),
      bankAccountType: bankAccountType(),
      bankName: bankName(),
    },
    rails: [BT],
    individual: { phoneNumber },
    primary: ['accountNumber'],
  },
  mobileMoney('KES', pat(/^\+254[0-9]{9}$/, 7, 15)),
  mobileMoney('MWK'),
  {
    accountType: 'MXN_ACCOUNT',
    currencies: ['MXN'],
    fields: { clabeNumber: pat(/^[0-9]{18}$/, 18, 18) },
    rails: ['SPEI'],
    primary: ['clabeNumber'],
  },
  swiftBank('MYR'),
  {
    accountType: 'NGN_ACCOUNT',
    currencies: ['NGN'],
    fields: { accountNumber: pat(/^[0-9]{10}$/, 10, 10), bankName: bankName() },
    rails: [BT],
    primary: ['accountNumber'],
  },
  {
    accountType: 'PHP_ACCOUNT',
    currencies: ['PHP'],
    fields: { bankName: bankName(), accountNumber: pat(/^[0-9]{8,16}$/, 8, 16) },
    rails: [BT],
    primary: ['accountNumber'],
  },
  {
    accountType: 'PKR_ACCOUNT',
    currencies: ['PKR'],
    fields: {
      bankName: bankName(),
      accountNumber: accountNumber().optional(),
      iban: pat(/^PK[0-9]{2}[A-Z]{4}[0-9]{16}$/, 24, 24).optional(),
      phoneNumber: phone().optional(),
    },
    rails: [BT, MM],
    railFields: btOrMm(['accountNumber', 'bankName'], ['bankName', 'phoneNumber']),
    primary: ['accountNumber', 'iban', 'phoneNumber'],
  },
  mobileMoney('RWF', pat(/^\+250[0-9]{9}$/, 7, 15)),
  swiftBank('SGD', false),
  {
    // El Salvador settles in US dollars: the SLV corridor takes SLV or USD.
    accountType: 'SLV_ACCOUNT',
    currencies: ['SLV', 'USD'],
    fields: {
      bankName: bankName().optional(),
      accountNumber: accountNumber().optional(),
      bankAccountType: bankAccountType().optional(),
      phoneNumber: phone().optional(),
    },
    rails: [BT, MM],
    railFields: btOrMm(['bankAccountType', 'accountNumber'], ['phoneNumber']),
    primary: ['accountNumber', 'phoneNumber'],
  },
  swiftBank('THB'),
  mobileMoney('TZS', pat(/^\+255[0-9]{9}$/, 7, 15)),
  mobileMoney('UGX'),
  {
    accountType: 'USD_ACCOUNT',
    currencies: ['USD'],
    fields: {
      accountNumber: accountNumber(),
      routingNumber: pat(/^[0-9]{9}$/, 9, 9),
      bankName: str(1, 140).optional(),
      bankAccountType: bankAccountType().optional(),
      intermediaryBankName: str(1, 140).optional(),
      intermediaryRoutingNumber: pat(/^[0-9]{9}$/, 9, 9).optional(),
      fiToFiInformation: z.string().max(210).optional(),
    },
    rails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
    primary: ['accountNumber'],
  },
  swiftBank('VND'),
  mobileMoney('XAF', phone(), { region: z.enum(['CM', 'CG']) }),
  mobileMoney('XOF', phone(), { region: z.enum(['BJ', 'CI', 'SN', 'TG']) }),
  {
    accountType: 'ZAR_ACCOUNT',
    currencies: ['ZAR'],
    fields: { accountNumber: pat(/^[0-9]{9,13}$/, 9, 13), bankName: bankName() },
    rails: [BT],
    primary: ['accountNumber'],
  },
  mobileMoney('ZMW', pat(/^\+260[0-9]{9}$/, 7, 15)),
  {
    // Any fiat currency; at least one of accountNumber or iban (checked in accountInfoRules).
    accountType: 'SWIFT_ACCOUNT',
    currencies: [],
    fields: {
      country: pat(/^[A-Z]{2}$/, 2, 2),
      swiftCode: swiftCode(),
      bankName: bankName(),
      accountNumber: accountNumber().optional(),
      iban: ibanAny().optional(),
    },
    rails: ['SWIFT'],
    primary: ['iban', 'accountNumber'],
  },
];

export const bankVariantSchemas = BANK_VARIANTS.map((v) =>
  z.object({ accountType: z.literal(v.accountType), ...v.fields, beneficiary: bankBeneficiary(v.individual) }),
);
