// Strict request reading (CORRIDOR_STRICT_REQUESTS=1, read per request) for the duration of `fn`:
// tests of the opt-in refusal of unknown fields run with it on, the rest with the default.
export async function withStrictRequests<T>(fn: () => Promise<T>): Promise<T> {
  const before = process.env.CORRIDOR_STRICT_REQUESTS;
  process.env.CORRIDOR_STRICT_REQUESTS = '1';
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.CORRIDOR_STRICT_REQUESTS;
    else process.env.CORRIDOR_STRICT_REQUESTS = before;
  }
}
