/**
 * A small HTTP client for seeding through the service's public API: JSON in and out, the
 * `auth_session` cookie carried per caller, and any unexpected status thrown with its body.
 */
export class ApiError extends Error {
  constructor(readonly method: string, readonly path: string, readonly status: number, readonly body: unknown) {
    super(`${method} ${path} answered ${status}: ${JSON.stringify(body)}`);
  }
}

export class Caller {
  constructor(readonly baseUrl: string, public cookie: string | undefined = undefined, readonly bearer: string | undefined = undefined) {}

  /**
   * On a loaded machine a seeding request may meet 503 (a timeout): it is retried with the same
   * body, which every seeding request tolerates (idempotency keys, or a harmless extra row).
   */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, expect: number[] = [200, 201]): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once<T>(method, path, body, expect);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 503) || attempt >= 4) throw error;
        await new Promise((r) => setTimeout(r, 1000 * attempt));
      }
    }
  }

  private async once<T>(method: string, path: string, body: unknown, expect: number[]): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookie) headers.cookie = this.cookie;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const res = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('auth_session='));
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!expect.includes(res.status)) throw new ApiError(method, path, res.status, parsed);
    return parsed as T;
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  get<T = Record<string, unknown>>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }
}

/** Runs `work` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

let keyCounter = 0;
/** A fresh idempotency key (pattern ^[A-Za-z0-9_.:-]+$, 8-128 characters). */
export function freshKey(prefix = 'bench'): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${(++keyCounter).toString(36)}`;
}
