import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  base58checkDecode,
  base58Decode,
  bech32Decode,
  concatBytes as concat,
  hexToBytes,
  isHex,
} from '../core/crypto/encoding';

// Proof that whoever asks controls a self-custody wallet: the wallet signs our exact message with
// its own key, in each chain's standard message-signing format, and we check the signature
// against the account's address. Nothing here trusts the caller: the key comes from the address
// (Solana, Spark) or is recovered from the signature and hashed into the address (EVM, Tron).
const utf8 = (s: string) => new TextEncoder().encode(s);
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Hex with an optional 0x prefix; null when it is not even-length hex. */
function hexBytes(hex: string): Uint8Array | null {
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  return isHex(h) ? hexToBytes(h) : null;
}

// Base58 decoding is quadratic in the length: nothing checked here is longer than a 64-byte
// signature (at most 88 characters), so longer input is refused before any work.
const MAX_BASE58 = 200;

/** `decode`, refusing input too long to check and answering null where it throws. */
const bounded =
  (decode: (s: string) => Uint8Array) =>
  (s: string): Uint8Array | null => {
    if (!s || s.length > MAX_BASE58) return null;
    try {
      return decode(s);
    } catch {
      return null;
    }
  };
/** Plain base58 (Solana keys and signatures). */
const base58Bytes = bounded(base58Decode);
/** base58check payload (Tron addresses): null also when the checksum fails. */
const base58checkBytes = bounded(base58checkDecode);

/** 65-byte r‖s‖v (v 27/28 or 0/1) over `hash` → the signer's uncompressed public key (without 0x04). */
function recoverEcdsa(sig: Uint8Array, hash: Uint8Array): Uint8Array | null {
  if (sig.length !== 65) return null;
  const v = sig[64] >= 27 ? sig[64] - 27 : sig[64];
  if (v > 1) return null;
  const recovered = secp256k1.Signature.fromBytes(
    concat(Uint8Array.of(v), sig.subarray(0, 64)),
    'recovered',
  ).recoverPublicKey(hash);
  return recovered.toBytes(false).subarray(1);
}

/** EIP-191 personal_sign, as EVM wallets sign messages; the address is checked case-insensitively. */
export function verifyEvm(address: string, message: string, signature: string): boolean {
  const want = hexBytes(address);
  const sig = hexBytes(signature);
  if (!want || want.length !== 20 || !sig) return false;
  const body = utf8(message);
  const hash = keccak_256(concat(utf8(`\x19Ethereum Signed Message:\n${body.length}`), body));
  const pub = recoverEcdsa(sig, hash);
  return !!pub && equal(keccak_256(pub).subarray(12), want);
}

/** TronWeb signMessageV2: EIP-191 with the TRON prefix; the address is base58check(0x41 ‖ 20 bytes). */
export function verifyTron(address: string, message: string, signature: string): boolean {
  const payload = base58checkBytes(address);
  const sig = hexBytes(signature);
  if (!payload || payload.length !== 21 || payload[0] !== 0x41 || !sig) return false;
  const body = utf8(message);
  const hash = keccak_256(concat(utf8(`\x19TRON Signed Message:\n${body.length}`), body));
  const pub = recoverEcdsa(sig, hash);
  return !!pub && equal(keccak_256(pub).subarray(12), payload.subarray(1));
}

/** Solana wallets sign the raw message bytes with the Ed25519 key that is the address. */
export function verifySolana(address: string, message: string, signature: string): boolean {
  const pub = base58Bytes(address);
  const sig = base58Bytes(signature);
  if (!pub || pub.length !== 32 || !sig || sig.length !== 64) return false;
  return ed25519.verify(sig, utf8(message), pub);
}

function varint(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  return Uint8Array.of(0xfd, n & 0xff, n >> 8);
}

/** The Bitcoin signed-message digest (BIP-137 and Electrum share it). */
export function bitcoinMessageHash(message: string): Uint8Array {
  const prefix = utf8('Bitcoin Signed Message:\n');
  const body = utf8(message);
  return sha256(sha256(concat(varint(prefix.length), prefix, varint(body.length), body)));
}

/**
 * Spark addresses are bech32m of a protobuf whose field 1 is the wallet's 33-byte identity key;
 * the wallet signs in Bitcoin message format (base64: header ‖ r ‖ s, recovery id in the header,
 * encoded the same way by BIP-137 and Electrum for the key types Spark uses).
 */
export function verifySpark(address: string, message: string, signature: string): boolean {
  const decoded = bech32Decode(address);
  if (!decoded || !decoded.hrp.startsWith('sp')) return false;
  const d = decoded.data;
  if (d.length < 35 || d[0] !== 0x0a || d[1] !== 33) return false;
  const identityKey = d.subarray(2, 35);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 65 || sig[0] < 27 || sig[0] > 42) return false;
  const recid = (sig[0] - 27) & 3;
  const point = secp256k1.Signature.fromBytes(
    concat(Uint8Array.of(recid), sig.subarray(1)),
    'recovered',
  ).recoverPublicKey(bitcoinMessageHash(message));
  return equal(point.toBytes(true), identityKey);
}

const VERIFIERS: Record<string, (address: string, message: string, signature: string) => boolean> = {
  BASE_WALLET: verifyEvm,
  ETHEREUM_WALLET: verifyEvm,
  POLYGON_WALLET: verifyEvm,
  PLASMA_WALLET: verifyEvm,
  TRON_WALLET: verifyTron,
  SOLANA_WALLET: verifySolana,
  SPARK_WALLET: verifySpark,
};

/** Whether `signature` is the wallet's signature of `message`; malformed input is simply false. */
export function verifyWalletSignature(
  accountType: string,
  address: string,
  message: string,
  signature: string,
): boolean {
  const verify = VERIFIERS[accountType];
  if (!verify) return false;
  try {
    return verify(address.trim(), message, signature.trim());
  } catch {
    return false;
  }
}
