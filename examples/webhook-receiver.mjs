// A webhook receiver that checks every delivery's signature before trusting it.
//
//   node examples/webhook-receiver.mjs <public-key.pem> [port]
//
// The key is the platform's `webhookSigningPublicKey` from GET /config (SPKI PEM). Corridor signs
// the exact body bytes with ECDSA P-256 over SHA-256 and sends the DER signature, base64, in the
// X-Grid-Signature header. A delivery whose signature verifies is answered 200 and printed as one
// line (`verified <type> <id>`); anything else is answered 401 and printed as `refused ...`.
// Stops on SIGTERM or SIGINT.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [keyFile, port = '4040'] = process.argv.slice(2);
if (!keyFile) {
  console.error('usage: node examples/webhook-receiver.mjs <public-key.pem> [port]');
  process.exit(1);
}
const publicKey = createPublicKey(readFileSync(keyFile, 'utf8'));

/** True when `signature` (base64 DER) is the platform's signature of exactly these bytes. */
function verifyDelivery(body, signature, key = publicKey) {
  if (!signature) return false;
  // Verify the raw bytes as received: parsing and re-serializing the JSON first would change them.
  return verify('sha256', body, { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (req.method !== 'POST' || !verifyDelivery(body, req.headers['x-grid-signature'])) {
      console.log(`refused ${req.method} ${req.url}: no valid X-Grid-Signature`);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid signature"}');
      return;
    }
    const event = JSON.parse(body.toString('utf8'));
    console.log(`verified ${event.type} ${event.id}`);
    // 200 acknowledges the delivery. (For INCOMING_PAYMENT.PENDING the answer also decides the
    // payment: 200 approves, 403 or 422 rejects, 202 leaves it to /transactions/{id}/approve|reject.)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(Number(port), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
