import { describe, expect, it } from 'vitest';
import { receiveHeading } from '@/components/wallet/receive';

// The receive section names each account's funding details for what they are: a bank account's
// are a bank transfer, a wallet address is a deposit on its network (a USDC address titled
// "Bank transfer" would send a user to their bank with a Solana address).
describe('receive headings', () => {
  it('a bank account is a bank transfer, a wallet address a deposit on its network', () => {
    expect(receiveHeading('USD', { accountType: 'USD_ACCOUNT', accountNumber: '1', routingNumber: '2' })).toBe(
      'Bank transfer to your USD account',
    );
    expect(receiveHeading('MXN', { accountType: 'CLABE', clabeNumber: '0' })).toBe('Bank transfer to your MXN account');
    expect(receiveHeading('USDC', { accountType: 'SOLANA_WALLET', address: 'abc' })).toBe(
      'Deposit to your USDC account on Solana',
    );
    expect(receiveHeading('USDT', { accountType: 'TRON_WALLET', address: 'T' })).toBe(
      'Deposit to your USDT account on Tron',
    );
  });
});
