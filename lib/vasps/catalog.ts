// The VASP directory: exchanges and other custodial platforms a customer may name as the host
// of a counterparty wallet (`vaspName` on a VASP-hosted crypto external account). In code, like
// every directory of the outside world here; alphabetical, names unique ignoring case.
export interface Vasp {
  vaspName: string;
  url: string;
}

const ENTRIES: [string, string][] = [
  ['Anchorage Digital', 'https://www.anchorage.com'],
  ['Binance', 'https://www.binance.com'],
  ['Bitfinex', 'https://www.bitfinex.com'],
  ['bitFlyer', 'https://bitflyer.com'],
  ['Bitget', 'https://www.bitget.com'],
  ['BitGo', 'https://www.bitgo.com'],
  ['Bithumb', 'https://www.bithumb.com'],
  ['Bitpanda', 'https://www.bitpanda.com'],
  ['Bitso', 'https://bitso.com'],
  ['Bitstamp', 'https://www.bitstamp.net'],
  ['Bitvavo', 'https://bitvavo.com'],
  ['Bybit', 'https://www.bybit.com'],
  ['Coinbase', 'https://www.coinbase.com'],
  ['Coincheck', 'https://coincheck.com'],
  ['Coins.ph', 'https://coins.ph'],
  ['Crypto.com', 'https://crypto.com'],
  ['Gemini', 'https://www.gemini.com'],
  ['HTX', 'https://www.htx.com'],
  ['Independent Reserve', 'https://www.independentreserve.com'],
  ['Kraken', 'https://www.kraken.com'],
  ['KuCoin', 'https://www.kucoin.com'],
  ['Luno', 'https://www.luno.com'],
  ['Mercado Bitcoin', 'https://www.mercadobitcoin.com.br'],
  ['OKX', 'https://www.okx.com'],
  ['Paxos', 'https://paxos.com'],
  ['Revolut', 'https://www.revolut.com'],
  ['Robinhood', 'https://robinhood.com'],
  ['Upbit', 'https://upbit.com'],
  ['Uphold', 'https://uphold.com'],
  ['Valr', 'https://www.valr.com'],
  ['WazirX', 'https://wazirx.com'],
  ['Yellow Card', 'https://yellowcard.io'],
];

export const VASPS: Vasp[] = ENTRIES.map(([vaspName, url]) => ({ vaspName, url })).sort((a, b) =>
  a.vaspName.localeCompare(b.vaspName, 'en', { sensitivity: 'base' }),
);

/** The directory entry a declared vaspName refers to, ignoring case. */
export function findVasp(vaspName: string): Vasp | undefined {
  const name = vaspName.trim().toLowerCase();
  return VASPS.find((v) => v.vaspName.toLowerCase() === name);
}
