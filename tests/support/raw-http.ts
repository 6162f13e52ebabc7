import net from 'node:net';

// HTTP/1.1 over a bare socket: requests no client library would send (TRACE, CONNECT, unknown
// methods, malformed escapes, a Content-Length larger than the body, broken chunking), and a
// reading that tells an answer from a reset or from silence.
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything received, for failure messages. */
  raw: string;
}

/** How long a test waits for any answer: far beyond the server's own limits, far below a hang. */
export const ANSWER_DEADLINE_MS = 30_000;

function parse(buf: Buffer, closed: boolean): RawResponse | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0])?.[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let rest = buf.subarray(end + 4);
  let body: Buffer;
  if (headers['content-length'] !== undefined) {
    const n = Number(headers['content-length']);
    if (rest.length < n) return null;
    body = rest.subarray(0, n);
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (rest.length < lineEnd + 2 + size + 2) return null;
      if (size === 0) break;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
    body = Buffer.concat(parts);
  } else if ([204, 304].includes(status)) {
    body = Buffer.alloc(0);
  } else {
    if (!closed) return null;
    body = rest;
  }
  return { status, headers, body: body.toString('utf8'), raw: buf.toString('latin1').slice(0, 2000) };
}

/**
 * Sends `request` and resolves with the first complete answer. Rejects on a reset or a close
 * without one, and when nothing complete arrived by the deadline.
 */
export function rawRequest(port: number, request: string | Buffer | (string | Buffer)[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (err: Error | null, res?: RawResponse) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      socket.destroy();
      if (err) reject(err);
      else resolve(res!);
    };
    const deadline = setTimeout(
      () =>
        finish(
          new Error(
            `no complete answer within ${ANSWER_DEADLINE_MS} ms; got: ${JSON.stringify(buf.toString('latin1').slice(0, 300))}`,
          ),
        ),
      ANSWER_DEADLINE_MS,
    );
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      const res = parse(buf, false);
      if (res) finish(null, res);
    });
    socket.on('error', (err) =>
      finish(
        new Error(
          `connection failed (${(err as NodeJS.ErrnoException).code}) after ${JSON.stringify(buf.toString('latin1').slice(0, 300))}`,
        ),
      ),
    );
    socket.on('end', () => {
      const res = parse(buf, true);
      if (res) finish(null, res);
      else finish(new Error(`closed without an answer; got: ${JSON.stringify(buf.toString('latin1').slice(0, 300))}`));
    });
    for (const part of Array.isArray(request) ? request : [request]) socket.write(part);
  });
}

/**
 * Sends `request`, waits for its answer, then sends `next` on the same connection and listens for
 * `listenMs`: what arrived after the first answer, and whether the server closed the connection.
 */
export function rawFollowUp(
  port: number,
  request: string | Buffer,
  next: string,
  listenMs = 2_000,
): Promise<{ first: RawResponse; after: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let first: RawResponse | null = null;
    let firstLength = 0;
    let closed = false;
    const deadline = setTimeout(() => finish(new Error('no first answer in time')), ANSWER_DEADLINE_MS);
    const finish = (err: Error | null) => {
      clearTimeout(deadline);
      socket.destroy();
      if (err || !first) reject(err ?? new Error(`closed without an answer: ${buf.toString('latin1')}`));
      else resolve({ first, after: buf.subarray(firstLength).toString('latin1'), closed });
    };
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (first) return;
      first = parse(buf, false);
      if (!first) return;
      // The first answer's length (the server's refusals carry Content-Length).
      firstLength = buf.indexOf('\r\n\r\n') + 4 + Number(first.headers['content-length'] ?? buf.length);
      socket.write(next, () => {});
      setTimeout(() => finish(null), listenMs);
    });
    socket.on('error', () => {}); // writing to a connection the server closed
    socket.on('close', () => {
      closed = true;
      if (!first) finish(null);
    });
    socket.write(request);
  });
}
