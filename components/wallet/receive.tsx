'use client';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import type { Json } from './api';
import { plainClass } from './ui';

// How others pay the holder: their UMA address (with a QR code a phone can scan) and, for each
// account that takes bank transfers, the details to give the sender — every value copyable.
const LABELS: Record<string, string> = {
  accountNumber: 'Account number',
  routingNumber: 'Routing number',
  iban: 'IBAN',
  swiftCode: 'SWIFT/BIC',
  clabeNumber: 'CLABE',
  bankName: 'Bank',
  reference: 'Reference (put it in the memo)',
  address: 'Address',
};

/** A bank account's details are a bank transfer; a wallet address (SOLANA_WALLET, …) is a deposit on its network. */
export function receiveHeading(code: string, info: Json): string {
  const type = typeof info?.accountType === 'string' ? info.accountType : '';
  if (!type.endsWith('_WALLET')) return `Bank transfer to your ${code} account`;
  const network = type.slice(0, -'_WALLET'.length);
  return `Deposit to your ${code} account on ${network.charAt(0)}${network.slice(1).toLowerCase()}`;
}

export function Receive({ umaAddress, accounts }: { umaAddress: string | null; accounts: Json[] }) {
  const banks = accounts.flatMap((a) =>
    ((a.fundingPaymentInstructions ?? []) as Json[]).map((i) => ({ account: a, info: i.accountOrWalletInfo })),
  );
  return (
    <div className="space-y-4">
      {umaAddress ? (
        <div>
          <h3 className="mb-1 font-medium">Your UMA address</h3>
          <CopyValue label="UMA address" value={umaAddress} />
          <Qr value={umaAddress} />
        </div>
      ) : null}
      {banks.map(({ account, info }) => (
        // A region per account, named by its heading: each copy button is then one of that account's.
        <section key={account.id} aria-labelledby={`receive-${account.id}`}>
          <h3 id={`receive-${account.id}`} className="mb-1 font-medium">
            {receiveHeading(account.balance.currency.code, info)}
          </h3>
          <div className="space-y-1">
            {Object.entries(LABELS)
              .filter(([field]) => typeof info[field] === 'string')
              .map(([field, label]) => (
                <CopyValue key={field} label={label} value={info[field]} />
              ))}
          </div>
        </section>
      ))}
      {!umaAddress && !banks.length ? <p className="text-sm text-slate-700">No way to receive is set up yet.</p> : null}
    </div>
  );
}

function CopyValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="min-w-0">
        <span className="block text-slate-700">{label}</span>
        <span className="font-mono break-all">{value}</span>
      </span>
      <button
        type="button"
        className={plainClass}
        aria-label={`Copy ${label}`}
        onClick={async () => {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

/** A QR code of `value`, drawn as SVG by the qrcode library (no canvas, no image request). */
function Qr({ value }: { value: string }) {
  const [svg, setSvg] = useState('');
  useEffect(() => {
    let live = true;
    void QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((s) => {
      if (live) setSvg(s);
    });
    return () => {
      live = false;
    };
  }, [value]);
  return (
    <div
      role="img"
      aria-label={`QR code of ${value}`}
      className="mt-2 h-40 w-40 max-w-full"
      // The library's own SVG markup (paths only) for a value of ours; nothing a user wrote runs here.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
