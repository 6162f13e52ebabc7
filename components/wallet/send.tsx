'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { parseAmount } from '../format';
import { ApiError, call, type Json } from './api';
import { stamp, type SessionKey } from './crypto';
import { money } from './figures';
import { Review } from './review';
import { Field, inputClass, plainClass, primaryClass, Problem } from './ui';

const UMA = 'uma';

/** A destination by its holder's name (lib/wallet-web/payee.ts), then the account and currency. */
function accountLabel(a: Json): string {
  return `${a.payee ?? 'Bank account'} (${a.currency})`;
}

type SendForm = ReturnType<typeof useSendForm>;

// What was typed survives the session ending (the page goes back to sign-in and comes back
// here): it is kept in this tab's sessionStorage until a payment is sent.
const DRAFT = 'corridor-wallet-send-draft';
type Draft = { to: string; uma: string; amount: string; description: string };
const EMPTY: Draft = { to: '', uma: '', amount: '', description: '' };

function readDraft(): Draft {
  try {
    return { ...EMPTY, ...JSON.parse(sessionStorage.getItem(DRAFT) ?? '{}') };
  } catch {
    return EMPTY;
  }
}

/** What the form holds; kept above the form so "Change" comes back to what was entered. */
function useSendForm() {
  const [draft, setDraft] = useState<Draft>(() => (typeof window === 'undefined' ? EMPTY : readDraft()));
  const set = (field: keyof Draft) => (value: string) =>
    setDraft((d) => {
      const next = { ...d, [field]: value };
      sessionStorage.setItem(DRAFT, JSON.stringify(next));
      return next;
    });
  const clear = () => {
    sessionStorage.removeItem(DRAFT);
    setDraft(EMPTY);
  };
  return {
    ...draft,
    setTo: set('to'),
    setUma: set('uma'),
    setAmount: set('amount'),
    setDescription: set('description'),
    clear,
  };
}

/**
 * Why a payment of `units` to `to` would fail, said before any quote is asked for: a missing or
 * malformed amount, more than the wallet holds, or a destination that can no longer receive.
 */
function refusal(form: SendForm, units: bigint | null, currency: string, available: bigint, destinations: Json[]) {
  if (!form.to) return 'Choose where to send the money';
  if (units === null || units <= 0n) return `Enter an amount in ${currency}, e.g. 12.50`;
  if (units > available)
    return `That is more than your wallet holds: ${money(available, currency)} is available to send.`;
  const account = destinations.find((a) => a.id === form.to);
  if (account && account.status && account.status !== 'ACTIVE')
    return `That account cannot receive payments (${String(account.status).toLowerCase()}).`;
  return null;
}

/** A quote refused for the corridor's limits, said in major units (the server's details are minor units). */
function inWords(err: unknown): never {
  const d = err instanceof ApiError ? err.details : null;
  if (err instanceof ApiError && err.code === 'TRANSACTION_SIZE_LIMIT_EXCEEDED' && d?.maxAmount !== undefined)
    throw new Error(`That is more than one payment can carry: at most ${money(d.maxAmount, d.currency)} at a time.`);
  if (err instanceof ApiError && err.code === 'AMOUNT_OUT_OF_RANGE' && d?.minAmount !== undefined)
    throw new Error(`That is less than one payment can carry: at least ${money(d.minAmount, d.currency)}.`);
  throw err;
}

// Send money from the wallet: pick a destination and an amount, get a quote, review what the
// other side receives, the rate and the fees, then confirm — the browser stamps the quote's
// payload with the session key and the quote is executed with that signature.
export function Send({
  currency,
  available,
  walletKey,
}: {
  currency: string;
  available: bigint;
  walletKey: SessionKey;
}) {
  const destinations = useQuery({
    queryKey: ['destinations'],
    queryFn: async () => (await call('GET', '/destinations')).data.data as Json[],
  });
  const form = useSendForm();
  const [idempotencyKey, setIdempotencyKey] = useState('');
  const quote = useMutation({
    mutationFn: async () => {
      const units = parseAmount(form.amount, currency);
      const refused = refusal(form, units, currency, available, destinations.data ?? []);
      if (refused || units === null) throw new Error(refused ?? 'Enter an amount');
      const destination = form.to === UMA ? { umaAddress: form.uma.trim() } : { accountId: form.to };
      const body = { destination, amount: units.toString(), description: form.description || undefined };
      return (await call('POST', '/quotes', body).catch(inWords)).data as Json;
    },
    onSuccess: () => setIdempotencyKey(crypto.randomUUID()),
  });
  const execute = useExecute(walletKey, idempotencyKey, form.clear);
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
        destination={
          form.to === UMA
            ? form.uma.trim()
            : accountLabel((destinations.data ?? []).find((a) => a.id === form.to) ?? { id: form.to })
        }
        note={form.description.trim()}
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

/** Executes the reviewed quote: the session key stamps its payload, once per idempotency key. */
function useExecute(walletKey: SessionKey, idempotencyKey: string, onSent: () => void) {
  const client = useQueryClient();
  return useMutation({
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
      onSent();
      void client.invalidateQueries({ queryKey: ['me'] });
      void client.invalidateQueries({ queryKey: ['history'] });
    },
  });
}

function Sent({ payment, onSendMore }: { payment: Json; onSendMore: () => void }) {
  return (
    <div role="status" className="space-y-3">
      <p className="rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
        Sent. {money(payment.totalSendingAmount, payment.sendingCurrency?.code)} left your wallet; the payment is{' '}
        {String(payment.status).toLowerCase()}.
      </p>
      <button type="button" className={plainClass} onClick={onSendMore}>
        Send more
      </button>
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
              <option key={a.id} value={a.id} disabled={Boolean(a.status && a.status !== 'ACTIVE')}>
                {accountLabel(a)}
                {a.status && a.status !== 'ACTIVE' ? ` — cannot receive (${String(a.status).toLowerCase()})` : ''}
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
