import { randomInt } from 'node:crypto';

// Card numbers. Sandbox cards get a random 16-digit Visa-range PAN whose last digit is the Luhn
// check digit (ISO/IEC 7812), so client-side validation accepts them like real ones.

/** The Luhn check digit for `payload` (the PAN without its last digit). */
export function luhnDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let d = payload.charCodeAt(payload.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function passesLuhn(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnDigit(pan.slice(0, -1)) === Number(pan.slice(-1));
}

const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');

/** A new PAN under `bin` (issuer identification number), `length` digits long. */
export function newPan(bin: string, length = 16): string {
  const payload = bin + digits(length - bin.length - 1);
  return payload + luhnDigit(payload);
}

export const newCvv = () => digits(3);
