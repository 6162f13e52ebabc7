'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatAmount, parseAmount } from '../format';
import { LocalTime } from '../time';
import { call, type Json } from './api';
import { stamp, type SessionKey } from './crypto';
import { Field, inputClass, plainClass, primaryClass, Problem } from './ui';

const UMA = 'uma';

function accountLabel(a: Json): string {
  const info = a.accountInfo ?? {};
  const tail = String(info.accountNumber ?? info.iban ?? info.clabeNumber ?? info.phoneNumber ?? a.id).slice(-4);
  return `${info.accountType ?? 'Account'} ···${tail} (${a.currency})`;
}

// Send money from the wallet: pick a destination and an amount, get a quote, review what the
// other side receives, the rate and the fees, then confirm — the browser stamps the quote's
// payload with the session key and the quote is executed with that signature.
export function Send({ currency, walletKey }: { currency: string; walletKey: SessionKey }) {
  const client = useQueryClient();
  const destinations = useQuery({
    queryKey: ['destinations'],
    queryFn: async () => (await call('GET', '/destinations')).data.data as Json[],
  });
  const [to, setTo] = useState('');
  const [uma, setUma] = useState('');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [idempotencyKey, setIdempotencyKey] = useState('');

  const quote = useMutation({
    mutationFn: async () => {
      const units = parseAmount(amount, currency);
      if (units === null || units <= 0n) throw new Error(`Enter an amount in ${currency}, e.g. 12.50`);
      const destination = to === UMA ? { umaAddress: uma.trim() } : { accountId: to };
      if (!to) throw new Error('Choose where to send the money');
      return (
        await call('POST', '/quotes', { destination, amount: units.toString(), description: description || undefined })
      ).data as Json;
    },
    onSuccess: () => setIdempotencyKey(crypto.randomUUID()),
  });
  const execute = useMutation({
    mutationFn: async (q: Json) => {
      const payload = q.paymentInstructions?.[0]?.accountOrWalletInfo?.payloadToSign as string | undefined;
      if (!payload) throw new Error('This quote has nothing to sign');
      return (
        await call(
          'POST',
          `/quotes/${encodeURIComponent(q.id)}/execute`,
          {},
          {
            'Service-Wallet-Signature': await stamp(payload, walletKey),
            'Idempotency-Key': idempotencyKey,
          },
        )
      ).data as Json;
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['me'] });
      void client.invalidateQueries({ queryKey: ['transactions'] });
    },
  });

  const q = quote.data;
  if (execute.isSuccess)
    return (
      <div role="status" className="space-y-3">
        <p className="rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
          Sent. {formatAmount(execute.data.totalSendingAmount, execute.data.sendingCurrency?.code)} left your wallet;
          the payment is {String(execute.data.status).toLowerCase()}.
        </p>
        <button
          type="button"
          className={plainClass}
          onClick={() => {
            quote.reset();
            execute.reset();
            setAmount('');
          }}
        >
          Send more
        </button>
      </div>
    );
  if (q)
    return (
      <div className="space-y-3">
        <h3 className="font-medium">Review the payment</h3>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-700">You send</dt>
          <dd>{formatAmount(q.totalSendingAmount, q.sendingCurrency?.code)}</dd>
          <dt className="text-slate-700">They receive</dt>
          <dd>{formatAmount(q.totalReceivingAmount, q.receivingCurrency?.code)}</dd>
          <dt className="text-slate-700">Rate</dt>
          <dd>
            1 {q.sendingCurrency?.code} = {q.exchangeRate} {q.receivingCurrency?.code}
          </dd>
          <dt className="text-slate-700">Fees included</dt>
          <dd>
            {formatAmount(BigInt(q.feesIncluded ?? 0) + BigInt(q.platformFeesIncluded ?? 0), q.sendingCurrency?.code)}
          </dd>
          <dt className="text-slate-700">Quote valid until</dt>
          <dd>
            <LocalTime value={q.expiresAt} />
          </dd>
        </dl>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={primaryClass} disabled={execute.isPending} onClick={() => execute.mutate(q)}>
            {execute.isPending ? 'Signing and sending…' : 'Confirm and send'}
          </button>
          <button
            type="button"
            className={plainClass}
            onClick={() => {
              quote.reset();
              execute.reset();
            }}
          >
            Change
          </button>
        </div>
        <Problem error={execute.error} />
      </div>
    );
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        quote.mutate();
      }}
    >
      <p className="text-sm text-slate-700">
        Payments from the wallet are converted: send to one of your accounts in another currency, or to a UMA address.
      </p>
      <Field id="send-to" label="Send to">
        <select id="send-to" value={to} onChange={(e) => setTo(e.target.value)} className={inputClass} required>
          <option value="">Choose…</option>
          {(destinations.data ?? [])
            .filter((a) => a.currency !== currency)
            .map((a) => (
              <option key={a.id} value={a.id}>
                {accountLabel(a)}
              </option>
            ))}
          <option value={UMA}>A UMA address</option>
        </select>
      </Field>
      {to === UMA ? (
        <Field id="send-uma" label="UMA address">
          <input
            id="send-uma"
            value={uma}
            onChange={(e) => setUma(e.target.value)}
            placeholder="$someone@example.com"
            className={inputClass}
            required
          />
        </Field>
      ) : null}
      <Field id="send-amount" label={`Amount (${currency})`}>
        <input
          id="send-amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          className={inputClass}
          required
        />
      </Field>
      <Field id="send-note" label="Note for the payment (optional)">
        <input
          id="send-note"
          maxLength={500}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          className={inputClass}
        />
      </Field>
      <button type="submit" disabled={quote.isPending} className={primaryClass}>
        {quote.isPending ? 'Getting a quote…' : 'Get a quote'}
      </button>
      {destinations.isError ? <Problem error={destinations.error} /> : null}
      <Problem error={quote.error} />
    </form>
  );
}
