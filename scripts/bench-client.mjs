// A minimal HTTP/1.1 keep-alive client for the bench: raw sockets, hand-framed requests and
// Content-Length responses. The load generator shares the machine with the server, so it must
// cost as little CPU as possible (fetch costs about as much as the route it measures).
import net from 'node:net';

export class Connection {
  constructor(host, port) {
    this.host = host;
    this.port = port;
    this.buffer = Buffer.alloc(0);
    this.pending = null;
  }

  connect() {
    return new Promise((resolve, reject) => {
      this.socket = net.connect({ host: this.host, port: this.port, noDelay: true }, resolve);
      this.socket.once('error', reject);
      this.socket.on('data', (chunk) => this.onData(chunk));
      this.socket.on('close', () => this.pending?.reject(new Error('connection closed')));
    });
  }

  onData(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.pending) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const length = m ? Number(m[1]) : 0;
    if (!m && !/ 204 | 304 /.test(head.slice(8, 13))) {
      if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return this.onChunked(head, end, status);
    }
    if (this.buffer.length < end + 4 + length) return;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    const p = this.pending;
    this.pending = null;
    p.resolve({ status, body });
  }

  onChunked(head, end, status) {
    // Only the terminal chunk matters for framing here; bodies the bench reads are small.
    const rest = this.buffer.subarray(end + 4).toString('latin1');
    const term = rest.indexOf('\r\n0\r\n\r\n');
    if (term < 0 && !rest.startsWith('0\r\n\r\n')) return;
    const raw = rest.slice(0, term < 0 ? 0 : term + 7);
    let body = '';
    for (let i = 0; i < raw.length;) {
      const nl = raw.indexOf('\r\n', i);
      const size = parseInt(raw.slice(i, nl), 16);
      if (!size) break;
      body += raw.slice(nl + 2, nl + 2 + size);
      i = nl + 2 + size + 2;
    }
    this.buffer = this.buffer.subarray(end + 4 + (term < 0 ? 5 : term + 7));
    const p = this.pending;
    this.pending = null;
    p.resolve({ status, body: Buffer.from(body, 'latin1').toString('utf8') });
  }

  request(method, path, headers, body) {
    const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    let text = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nconnection: keep-alive\r\n`;
    for (const [k, v] of Object.entries(headers)) text += `${k}: ${v}\r\n`;
    if (payload) text += `content-type: application/json\r\n`;
    text += `content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(text);
    });
  }

  close() {
    this.socket?.destroy();
  }
}
