import { describe, expect, it } from 'vitest';
import { limitWarnings, type LimitsToSave } from './limit-warnings';

const none = { dailySpend: 0n, monthlySpend: 0n, dailyTransactionCount: 0 };
const limits = (l: Partial<LimitsToSave>): LimitsToSave => ({
  currency: 'USD',
  perTransactionLimit: 100_000n,
  dailyLimit: 500_000n,
  monthlyLimit: 2_000_000n,
  dailyTransactionLimit: 10,
  ...l,
});

describe('limitWarnings', () => {
  it('says nothing about limits that agree with each other and with the usage', () => {
    expect(limitWarnings(limits({}), none)).toEqual([]);
    expect(limitWarnings(limits({ dailyLimit: null, monthlyLimit: null, dailyTransactionLimit: null }), none)).toEqual(
      [],
    );
  });

  it('warns of a daily limit below the per-transaction limit, in major units with the currency', () => {
    expect(limitWarnings(limits({ dailyLimit: 50_000n }), none)).toEqual([
      'The daily limit (500.00 USD) is below the limit per transaction (1,000.00 USD): no payment above 500.00 USD can pass.',
    ]);
  });

  it('warns of a monthly limit below the daily one, or below the per-transaction one with no daily limit', () => {
    expect(limitWarnings(limits({ monthlyLimit: 400_000n }), none)).toEqual([
      'The monthly limit (4,000.00 USD) is below the daily limit (5,000.00 USD).',
    ]);
    expect(limitWarnings(limits({ dailyLimit: null, monthlyLimit: 90_000n }), none)).toEqual([
      'The monthly limit (900.00 USD) is below the limit per transaction (1,000.00 USD).',
    ]);
  });

  it('warns of limits below what the agent already spent or counted today and this month', () => {
    const usage = { dailySpend: 600_000n, monthlySpend: 2_500_000n, dailyTransactionCount: 12 };
    expect(limitWarnings(limits({}), usage)).toEqual([
      'The agent already spent 6,000.00 USD today, more than the new daily limit of 5,000.00 USD: it can spend nothing more today.',
      'The agent already spent 25,000.00 USD this month, more than the new monthly limit of 20,000.00 USD.',
      'The agent already made 12 transactions today, more than the new limit of 10 a day.',
    ]);
  });

  it('warns that zero transactions a day stops the agent', () => {
    expect(limitWarnings(limits({ dailyTransactionLimit: 0 }), none)).toEqual([
      'Zero transactions a day: the agent cannot pay at all.',
    ]);
  });
});
