// The soak's money operations. Each operation has one Idempotency-Key and one or two request
// bodies: `a`, the original, and `b`, a changed body a misbehaving client sends under the same
// key. Each body carries what lets the soak find its effect in the database afterwards:
//   fund          the amount, unique in the run (an AVAILABLE-bucket entry of a SANDBOX_FUNDING posting)
//   transfer-in   the amount, unique in the run (an INCOMING transaction without quote, by account)
//   transfer-out  remittanceInformation = the body's marker (Transaction."remittanceInformation")
//   quote, quote-now  description = the body's marker (Quote."description")
//   cancel        reason = the body's marker (Transaction."platformReason", written with the cancellation)
//   execute, send the quote's transaction getting its PAYMENT_HOLD / FUNDING_RECEIVED posting:
//                 both bodies act on the same quote, so the effect belongs to the key, not a body
// Markers are `soak-<run>-<operation><a|b>`; unique amounts come from the operation's index.

const BENEFICIARY = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Pat Receiver',
  countryOfResidence: 'DE',
  address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
};
const pad = (n, suffix) => `${'4000000000000000000000000'.slice(0, n - suffix.length)}${suffix}`;
const NAMES = ['Ada Poor', 'Lou Locked', 'Max Mixed', 'Ivy Idem', 'Kim Keys', 'Ray Retry', 'Sam Soak', 'Zoe Zero'];
export const SETUP_FUNDING = 100_000_000; // 1,000,000.00 USD per customer (never a keyed amount)
const POOR_FUNDING = 5_000; // customer 0 runs dry: its transfers legitimately fail with 400

async function externalAccount(client, customerId, currency, suffix) {
  const accountInfo =
    currency === 'USD'
      ? {
          accountType: 'USD_ACCOUNT',
          accountNumber: pad(12, suffix),
          routingNumber: '021000021',
          bankAccountType: 'CHECKING',
          bankName: 'Soak Bank',
          beneficiary: BENEFICIARY,
        }
      : { accountType: 'EUR_ACCOUNT', iban: `DE89${pad(18, suffix)}`, beneficiary: BENEFICIARY };
  return (await client.must('POST', '/customers/external-accounts', { customerId, currency, accountInfo })).id;
}

/**
 * Customers with USD and EUR internal accounts and external accounts whose suffixes pick the
 * sandbox outcomes (USD: 321 succeeds, 002 fails at once, 004 rejected, 005 pending ~30 s then
 * fails; EUR: 246 succeeds, 002 execution failed, 004 delivery failed). Customer 0 is poor,
 * customer 1's USD account is the one the soak locks.
 */
export async function setupCustomers(client, count) {
  const customers = [];
  for (let i = 0; i < count; i++) {
    const c = await client.must('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: NAMES[i % NAMES.length],
      platformCustomerId: `soak-customer-${i}`,
      currencies: ['USD', 'EUR'],
    });
    const list = await client.must('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`);
    const acct = (code) =>
      list.data.find((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === code)?.id ??
      list.data.find((a) => a.type !== 'EMBEDDED_WALLET' && a.balance.currency.code === code).id;
    const h = { index: i, id: c.id, usd: acct('USD'), eur: acct('EUR'), ext: {} };
    for (const s of ['321', '002', '004', '005']) h.ext[`usd${s}`] = await externalAccount(client, c.id, 'USD', s);
    for (const s of ['246', '002', '004']) h.ext[`eur${s}`] = await externalAccount(client, c.id, 'EUR', s);
    await client.must('POST', `/sandbox/internal-accounts/${h.usd}/fund`, {
      amount: i === 0 ? POOR_FUNDING : SETUP_FUNDING,
    });
    customers.push(h);
  }
  return customers;
}

// How often each kind is drawn. execute, send and cancel need a quote or transfer made earlier
// in the run; with none available the draw falls back to a transfer-out.
const WEIGHTS = [
  ['fund', 12],
  ['transfer-out', 24],
  ['transfer-in', 12],
  ['quote', 16],
  ['quote-now', 14],
  ['execute', 12],
  ['send', 6],
  ['cancel', 4],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((s, [, w]) => s + w, 0);

export class Operations {
  constructor({ runId, rng, customers }) {
    Object.assign(this, { runId, rng, customers });
    this.pools = { execute: [], send: [], cancel: [] };
    this.count = 0;
  }

  pick(list) {
    return list[Math.floor(this.rng() * list.length)];
  }

  drawKind() {
    let r = this.rng() * TOTAL_WEIGHT;
    for (const [kind, w] of WEIGHTS) if ((r -= w) < 0) return kind;
    return 'transfer-out';
  }

  /** The next operation (kind drawn unless given; customer drawn unless given). */
  next({ kind, customer } = {}) {
    kind ??= this.drawKind();
    let target;
    if (kind === 'execute' || kind === 'send' || kind === 'cancel') {
      // From the given customer's entries when one is given.
      const pool = this.pools[kind];
      const eligible = pool.map((e, i) => i).filter((i) => !customer || pool[i].customer === customer.index);
      if (eligible.length) target = pool.splice(eligible[Math.floor(this.rng() * eligible.length)], 1)[0];
      else kind = 'transfer-out';
    }
    // The poor customer only sends (funding it would make it rich).
    const payers = ['fund', 'transfer-in'].includes(kind) ? this.customers.slice(1) : this.customers;
    const c = target ? this.customers[target.customer] : (customer ?? this.pick(payers));
    const index = this.count++;
    const marker = (v) => `soak-${this.runId}-${index}${v}`;
    const tag = (v) => index * 2 + (v === 'a' ? 1 : 2);
    const op = { index, kind, key: `soak-${this.runId}-key-${index}`, customer: c.index, senders: [] };
    op.variants = Object.fromEntries(['a', 'b'].map((v) => [v, this.body(kind, c, v, marker(v), tag(v), target)]));
    op.target = target ?? null;
    return op;
  }

  body(kind, c, v, marker, tag, target) {
    const r = this.rng;
    const changed = v === 'b' ? 1 : 0;
    const json = (method, path, body, match) => ({ method, path, body: JSON.stringify(body), marker, match });
    switch (kind) {
      case 'fund': {
        const amount = 5_000_000 + tag;
        return json('POST', `/sandbox/internal-accounts/${c.usd}/fund`, { amount }, { account: c.usd, amount });
      }
      case 'transfer-in': {
        const amount = 10_000 + tag;
        const source = this.pick([c.ext.usd321, c.ext.usd321, c.ext.usd321, c.ext.usd004, c.ext.usd005]);
        return json(
          'POST',
          '/transfer-in',
          { source: { accountId: source }, destination: { accountId: c.usd }, amount },
          { account: c.usd, amount },
        );
      }
      case 'transfer-out': {
        const roll = r();
        // ACH transfers can be cancelled before they settle (the cancel pool takes those).
        const [dest, rail] =
          roll < 0.45
            ? [c.ext.usd321, undefined]
            : roll < 0.65
              ? [c.ext.usd321, 'ACH']
              : roll < 0.8
                ? [c.ext.usd005, 'ACH']
                : roll < 0.9
                  ? [c.ext.usd002, undefined]
                  : [c.ext.usd004, undefined];
        const amount = (c.index === 0 ? 1000 : 100) + Math.floor(r() * 1900) + changed;
        return json('POST', '/transfer-out', {
          source: { accountId: c.usd },
          destination: { accountId: dest, ...(rail ? { paymentRail: rail } : {}) },
          amount,
          remittanceInformation: marker,
        });
      }
      case 'quote':
      case 'quote-now': {
        const realtime = kind === 'quote' && r() < 0.35;
        const dest = this.pick([c.ext.eur246, c.ext.eur246, c.ext.eur246, c.ext.eur246, c.ext.eur002, c.ext.eur004]);
        return json('POST', '/quotes', {
          source: realtime
            ? { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.id }
            : { sourceType: 'ACCOUNT', accountId: c.usd },
          destination: { destinationType: 'ACCOUNT', accountId: dest },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: (c.index === 0 ? 2000 : 500) + Math.floor(r() * 4500) + changed,
          description: marker,
          ...(kind === 'quote-now' ? { immediatelyExecute: true } : {}),
        });
      }
      case 'execute':
        return json('POST', `/quotes/${target.quoteId}/execute`, changed ? { scaFactor: 'SMS_OTP' } : {}, {
          transactionId: target.transactionId,
        });
      case 'send':
        return json(
          'POST',
          '/sandbox/send',
          {
            quoteId: target.quoteId,
            currencyCode: 'USD',
            ...(changed ? { currencyAmount: target.totalSending + 1 } : {}),
          },
          { transactionId: target.transactionId },
        );
      case 'cancel':
        return json('POST', `/transactions/${target.transactionId}/cancel`, { reason: marker });
    }
    throw new Error(`unknown kind ${kind}`);
  }

  /** Feeds later operations from an operation's successful answer. */
  answered(op, answer) {
    if (!answer) return;
    if (op.kind === 'quote' && answer.status === 'PENDING') {
      const entry = { quoteId: answer.id, transactionId: answer.transactionId, customer: op.customer };
      if (answer.source?.sourceType === 'REALTIME_FUNDING')
        this.pools.send.push({ ...entry, totalSending: Number(answer.totalSendingAmount) });
      else this.pools.execute.push(entry);
    }
    if ((op.kind === 'transfer-out' || op.kind === 'transfer-in') && answer.status === 'PROCESSING') {
      if (answer.paymentRail === 'ACH') this.pools.cancel.push({ transactionId: answer.id, customer: op.customer });
    }
  }
}

/** Effects that belong to the key (both bodies act on one quote) rather than to one body. */
export const KEY_SCOPED = new Set(['execute', 'send']);

/** The id a successful answer of this kind names, to compare with the effect found. */
export function answeredId(kind, body) {
  if (!body || typeof body !== 'object') return undefined;
  if (kind === 'fund') return undefined; // answers the account, not the posting
  return body.id;
}
