// A reference receiver for Corridor's bring-your-own-rail adapter (docs/rails.md), plain node:http.
// It takes signed instructions from Corridor (PAYOUT, PULL, and RETURN: money a PULL collected,
// sent back to that account, `originalReference` naming the pull), answers whether it took each
// one, remembers them by Corridor's reference (a repeated instruction is answered as the first was,
// never carried twice), and reports outcomes back to Corridor's /rails/callbacks, signed with its
// own key. Replace `carry` with the call to your bank or processor.
//
//   CORRIDOR_RAIL_PUBLIC_KEY   Corridor's rail public key (PEM): verifies instructions
//   RECEIVER_PRIVATE_KEY       this receiver's private key (PEM, P-256): signs callbacks
//   PORT                       where to listen (default 4100)
//   COMPLETE_AFTER_MS          in this demonstration, report COMPLETED after this long (default 2000)
//
// Run: node examples/rail-receiver.mjs
import http from 'node:http';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export const SIGNATURE_HEADER = 'x-grid-signature';

/** ECDSA P-256 over SHA-256 of the exact body bytes, base64 DER: Corridor's webhook scheme. */
export const signBody = (body, privateKey) => sign('sha256', Buffer.from(body), privateKey).toString('base64');
export function verifyBody(body, signature, publicKey) {
  if (!signature) return false;
  try {
    return verify('sha256', Buffer.from(body), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

const pem = (raw) => raw.replace(/\\n/g, '\n');

/**
 * A receiver. `carry(instruction)` decides the answer: { status: 'ACCEPTED' | 'REFUSED' | 'RETRY',
 * reason?, retryAfterSeconds? } (default ACCEPTED). `instructions` holds what arrived, by reference.
 */
export function createReceiver({ corridorPublicKey, privateKey, carry = async () => ({ status: 'ACCEPTED' }) }) {
  const corridorKey =
    typeof corridorPublicKey === 'string' ? createPublicKey(pem(corridorPublicKey)) : corridorPublicKey;
  const ownKey = typeof privateKey === 'string' ? createPrivateKey(pem(privateKey)) : privateKey;
  const instructions = new Map();
  let received = 0;

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = (status, json) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method !== 'POST') return answer(405, { reason: 'POST instructions here' });
      if (!verifyBody(body, req.headers[SIGNATURE_HEADER], corridorKey))
        return answer(401, { reason: 'bad signature' });
      let instruction;
      try {
        instruction = JSON.parse(body);
      } catch {
        return answer(400, { status: 'REFUSED', reason: 'not JSON' });
      }
      received += 1;
      // Idempotent by Corridor's reference: the first answer stands.
      const known = instructions.get(instruction.reference);
      if (known && known.answer.status !== 'RETRY') return answer(200, known.answer);
      const decided = await carry(instruction);
      const providerReference = `RCV-${instructions.size + 1}`;
      const reply = decided.status === 'ACCEPTED' ? { ...decided, providerReference } : decided;
      instructions.set(instruction.reference, { instruction, answer: reply });
      answer(200, reply);
    });
  });

  /** Reports an outcome for `reference` to Corridor; resolves with Corridor's HTTP status and body. */
  async function report(reference, status, { failureReason, eventId, callbackUrl } = {}) {
    const target = callbackUrl ?? instructions.get(reference)?.instruction.callbackUrl;
    if (!target) throw new Error(`no callback URL for ${reference}`);
    const body = JSON.stringify({ reference, status, failureReason, eventId: eventId ?? `${reference}:${status}` });
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(body, ownKey) },
      body,
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  }

  return { server, instructions, report, received: () => received };
}

// Run directly: accept everything, report COMPLETED after COMPLETE_AFTER_MS.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const after = Number(process.env.COMPLETE_AFTER_MS ?? 2000);
  const receiver = createReceiver({
    corridorPublicKey: process.env.CORRIDOR_RAIL_PUBLIC_KEY,
    privateKey: process.env.RECEIVER_PRIVATE_KEY,
    carry: async (instruction) => {
      setTimeout(() => {
        receiver
          .report(instruction.reference, 'COMPLETED')
          .then((r) => console.log(`[rail] ${instruction.reference} COMPLETED -> ${r.status}`))
          .catch((err) => console.error(`[rail] callback failed: ${err.message}`));
      }, after);
      console.log(`[rail] ${instruction.type} ${instruction.amount} ${instruction.currency} ${instruction.reference}`);
      return { status: 'ACCEPTED' };
    },
  });
  const port = Number(process.env.PORT ?? 4100);
  receiver.server.listen(port, () => console.log(`[rail] listening on http://localhost:${port}`));
}
