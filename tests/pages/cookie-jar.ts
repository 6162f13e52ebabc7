// A stand-in for next/headers' cookie store in tests of route handlers and server actions:
// what a handler sets is what the next request of the same "browser" sends.
export class CookieJar {
  readonly values = new Map<string, string>();
  readonly options = new Map<string, Record<string, unknown>>();
  get(name: string) {
    const value = this.values.get(name);
    return value === undefined ? undefined : { name, value };
  }
  getAll() {
    return [...this.values].map(([name, value]) => ({ name, value }));
  }
  has(name: string) {
    return this.values.has(name);
  }
  set(name: string, value: string, options: Record<string, unknown> = {}) {
    this.values.set(name, value);
    this.options.set(name, options);
    return this;
  }
  delete(nameOrOptions: string | { name: string }) {
    this.values.delete(typeof nameOrOptions === 'string' ? nameOrOptions : nameOrOptions.name);
    return this;
  }
}

/** The jar the mocked next/headers hands out; tests switch it to act as another browser. */
export const current: { jar: CookieJar; headers: Headers } = { jar: new CookieJar(), headers: new Headers() };
