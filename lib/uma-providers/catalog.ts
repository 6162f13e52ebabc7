import { sandboxUmaDomain } from '../platform/service';

// UMA providers: the wallets, exchanges and banks whose customers hold UMA addresses, i.e. the
// counterparties a platform's customers can pay by UMA. `allowListed` is the service's default
// counterparty allow list (providers whose counterparty review is complete); the reference has no
// operation that edits a platform's allow list, so every platform sees this one, and
// `hasBlockedProviders=false` hides the rest. `listedAt` orders the directory (newest first by
// default), like every list of the interface.
export interface UmaProvider {
  name: string;
  domain: string;
  supportedRegions: string[];
  supportedCurrencies: string[];
  logoUrl?: string;
  listedAt: string;
  allowListed: boolean;
}

export function umaProviders(): UmaProvider[] {
  return [
    {
      name: 'Lightspark Group',
      domain: 'uma.me',
      supportedRegions: ['US'],
      supportedCurrencies: ['USD', 'BTC'],
      logoUrl: 'https://uma.me/logo.png',
      listedAt: '2023-10-23',
      allowListed: true,
    },
    {
      name: 'Bitnob',
      domain: 'bitnob.com',
      supportedRegions: ['NG', 'GH', 'KE'],
      supportedCurrencies: ['NGN', 'GHS', 'KES', 'USD', 'BTC'],
      listedAt: '2023-10-24',
      allowListed: true,
    },
    {
      name: 'Coins.ph',
      domain: 'coins.ph',
      supportedRegions: ['PH'],
      supportedCurrencies: ['PHP', 'USDT', 'BTC'],
      listedAt: '2023-10-25',
      allowListed: true,
    },
    {
      name: 'Xapo Bank',
      domain: 'xapobank.com',
      supportedRegions: ['GI', 'ES', 'PT', 'IT', 'DE', 'FR'],
      supportedCurrencies: ['USD', 'USDC', 'BTC'],
      listedAt: '2023-10-26',
      allowListed: true,
    },
    {
      name: 'Foxbit',
      domain: 'foxbit.com.br',
      supportedRegions: ['BR'],
      supportedCurrencies: ['BRL', 'BTC'],
      listedAt: '2023-10-27',
      allowListed: false,
    },
    {
      name: 'Ripio',
      domain: 'ripio.com',
      supportedRegions: ['AR', 'BR', 'MX', 'CO'],
      supportedCurrencies: ['BRL', 'MXN', 'COP', 'USDC', 'BTC'],
      listedAt: '2023-10-28',
      allowListed: false,
    },
    {
      name: 'Bakkt',
      domain: 'bakkt.com',
      supportedRegions: ['US'],
      supportedCurrencies: ['USD', 'BTC'],
      listedAt: '2024-02-01',
      allowListed: false,
    },
    {
      name: 'Zero Hash',
      domain: 'zerohash.com',
      supportedRegions: ['US'],
      supportedCurrencies: ['USD', 'USDC', 'BTC'],
      listedAt: '2024-02-02',
      allowListed: false,
    },
    // The sandbox counterparty behind the specification's magic UMA addresses ($success.usd@...).
    {
      name: 'Corridor Sandbox',
      domain: sandboxUmaDomain(),
      supportedRegions: ['US', 'MX', 'DE', 'FR', 'ES', 'IT', 'NL'],
      supportedCurrencies: ['USD', 'EUR', 'MXN'],
      listedAt: '2025-10-13',
      allowListed: true,
    },
  ];
}
