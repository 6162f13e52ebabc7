// How the wallet names a bank account it sends to: by its holder (the beneficiary the account
// was registered with: a person's full name, a business's legal name), then which account, so the
// review screen and the history say "Ada Lovelace · MXN account ···5678", not "MXN_ACCOUNT ···5678".
type Info = Record<string, unknown> & {
  accountType?: string;
  beneficiary?: { fullName?: string; legalName?: string; businessName?: string };
};

/** The account's holder, as the beneficiary names them (null when the account names none). */
export function holderName(info: Info): string | null {
  const b = info.beneficiary;
  const name = b?.fullName ?? b?.legalName ?? b?.businessName;
  return typeof name === 'string' && name.trim() ? name.trim() : null;
}

/** "MXN_ACCOUNT" read as "MXN account", "IBAN" as "IBAN". */
const kindOf = (type: string | undefined) =>
  type ? type.replace(/_ACCOUNT$/, ' account').replace(/_/g, ' ') : 'Bank account';

/** The holder, the kind of account and its last four digits. */
export function payeeLabel(info: Info, fallbackId: string): string {
  const number = String(info.accountNumber ?? info.iban ?? info.clabeNumber ?? info.phoneNumber ?? fallbackId);
  const account = `${kindOf(info.accountType)} ···${number.slice(-4)}`;
  const holder = holderName(info);
  return holder ? `${holder} · ${account}` : account;
}
