import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got: its path, lower-cased headers and the raw body, as sent. */
export interface ReceivedWebhook {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** How a path answers: a status (default 200), a redirect, or never (the request hangs until the receiver closes). */
export type Behaviour = { status: number; location?: string } | 'hang';

/**
 * A local webhook receiver for tests (CONTRACT §21 acceptance): one HTTP server on 127.0.0.1, each
 * path an endpoint whose answers a test sets (`answer(path, ...)`: one behaviour, or a list used in
 * turn, its last repeated). Records every request, raw.
 */
export interface WebhookReceiver {
  url(path: string): string;
  port: number;
  received: ReceivedWebhook[];
  on(path: string): ReceivedWebhook[];
  answer(path: string, ...behaviours: Behaviour[]): void;
  waitFor(path: string, count?: number, withinMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function webhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const plans = new Map<string, Behaviour[]>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : (value ?? '');
      received.push({ path, method: req.method ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const plan = plans.get(path) ?? [];
      const count = received.filter((r) => r.path === path).length;
      const behaviour = plan[Math.min(count, plan.length) - 1] ?? { status: 200 };
      if (behaviour === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(behaviour.status, behaviour.location ? { location: behaviour.location } : {});
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const on = (path: string) => received.filter((r) => r.path === path);
  return {
    port,
    received,
    on,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    answer: (path, ...behaviours) => plans.set(path, behaviours),
    async waitFor(path, count = 1, withinMs = 15_000) {
      const deadline = Date.now() + withinMs;
      while (on(path).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return on(path);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
