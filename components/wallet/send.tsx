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

type SendForm = ReturnType<typeof useSendForm>;

/** What the form holds; kept above the form so "Change" comes back to what was entered. */
function useSendForm() {
  const [to, setTo] = useState('');
  const [uma, setUma] = useState('');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  return { to, setTo, uma, setUma, amount, setAmount, description, setDescription };
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
  const form = useSendForm();
  const [idempotencyKey, setIdempotencyKey] = useState('');
  const quote = useMutation({
    mutationFn: async () => {
      const units = parseAmount(form.amount, currency);
      if (units === null || units <= 0n) throw new Error(`Enter an amount in ${currency}, e.g. 12.50`);
      const destination = form.to === UMA ? { umaAddress: form.uma.trim() } : { accountId: form.to };
      if (!form.to) throw new Error('Choose where to send the money');
      const body = { destination, amount: units.toString(), description: form.description || undefined };
      return (await call('POST', '/quotes', body)).data as Json;
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
  const startOver = () => {
    quote.reset();
    execute.reset();
  };

  const q = quote.data;
  if (execute.isSuccess)
    return (
      <Sent
        payment={execute.data}
        onSendMore={() => {
          startOver();
          form.setAmount('');
        }}
      />
    );
  if (q)
    return (
      <Review
        q={q}
        sending={execute.isPending}
        error={execute.error}
        onConfirm={() => execute.mutate(q)}
        onChange={startOver}
      />
    );
  return (
    <QuoteForm
      currency={currency}
      form={form}
      destinations={destinations.data ?? []}
      destinationsError={destinations.isError ? destinations.error : null}
      quoting={quote.isPending}
      error={quote.error}
      onQuote={() => quote.mutate()}
    />
  );
}

function Sent({ payment, onSendMore }: { payment: Json; onSendMore: () => void }) {
  return (
    <div role="status" className="space-y-3">
      <p className="rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
        Sent. {formatAmount(payment.totalSendingAmount, payment.sendingCurrency?.code)} left your wallet; the payment is{' '}
        {String(payment.status).toLowerCase()}.
      </p>
      <button type="button" className={plainClass} onClick={onSendMore}>
        Send more
      </button>
    </div>
  );
}

function Review({
  q,
  sending,
  error,
  onConfirm,
  onChange,
}: {
  q: Json;
  sending: boolean;
  error: Error | null;
  onConfirm: () => void;
  onChange: () => void;
}) {
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
        <button type="button" className={primaryClass} disabled={sending} onClick={onConfirm}>
          {sending ? 'Signing and sending…' : 'Confirm and send'}
        </button>
        <button type="button" className={plainClass} onClick={onChange}>
          Change
        </button>
      </div>
      <Problem error={error} />
    </div>
  );
}

function QuoteForm({
  currency,
  form,
  destinations,
  destinationsError,
  quoting,
  error,
  onQuote,
}: {
  currency: string;
  form: SendForm;
  destinations: Json[];
  destinationsError: Error | null;
  quoting: boolean;
  error: Error | null;
  onQuote: () => void;
}) {
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        onQuote();
      }}
    >
      <p className="text-sm text-slate-700">
        Payments from the wallet are converted: send to one of your accounts in another currency, or to a UMA address.
      </p>
      <Destination currency={currency} form={form} destinations={destinations} />
      <Field id="send-amount" label={`Amount (${currency})`}>
        <input
          id="send-amount"
          inputMode="decimal"
          value={form.amount}
          onChange={(e) => form.setAmount(e.target.value)}
          className={inputClass}
          required
        />
      </Field>
      <Field id="send-note" label="Note for the payment (optional)">
        <input
          id="send-note"
          maxLength={500}
          value={form.description}
          onChange={(e) => form.setDescription(e.target.value)}
          className={inputClass}
        />
      </Field>
      <button type="submit" disabled={quoting} className={primaryClass}>
        {quoting ? 'Getting a quote…' : 'Get a quote'}
      </button>
      {destinationsError ? <Problem error={destinationsError} /> : null}
      <Problem error={error} />
    </form>
  );
}

/** One of the holder's accounts in another currency, or a UMA address typed in. */
function Destination({ currency, form, destinations }: { currency: string; form: SendForm; destinations: Json[] }) {
  return (
    <>
      <Field id="send-to" label="Send to">
        <select
          id="send-to"
          value={form.to}
          onChange={(e) => form.setTo(e.target.value)}
          className={inputClass}
          required
        >
          <option value="">Choose…</option>
          {destinations
            .filter((a) => a.currency !== currency)
            .map((a) => (
              <option key={a.id} value={a.id}>
                {accountLabel(a)}
              </option>
            ))}
          <option value={UMA}>A UMA address</option>
        </select>
      </Field>
      {form.to === UMA ? (
        <Field id="send-uma" label="UMA address">
          <input
            id="send-uma"
            value={form.uma}
            onChange={(e) => form.setUma(e.target.value)}
            placeholder="$someone@example.com"
            className={inputClass}
            required
          />
        </Field>
      ) : null}
    </>
  );
}
