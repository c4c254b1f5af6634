import type { AddressInfo } from 'node:net';
import { connect, Socket } from 'node:net';
import type { Server } from 'node:http';
import { createTestApp, TestApp } from '../support/app';

/**
 * A client that holds a connection open without finishing its request costs a socket and memory;
 * behind a proxy the server's bounds must hold (issue 26 item 12: slow headers held a socket 72 s,
 * a silent one 79 s, a trickled body 130 s). Each probe runs on a raw socket against the real
 * app's HTTP server; the four run at once, so the file takes about REQUEST_TIMEOUT_MS.
 */
describe('server timeouts (issue 26 item 12)', () => {
  let t: TestApp;
  let port: number;
  /** Grace past a bound: the server checks its connections once a second; the machine is shared. */
  const SLACK_MS = 5_000;
  /** Longest a probe waits for the server to close (long enough to see today's 60-90 s bounds fail). */
  const GIVE_UP_MS = 50_000;

  beforeAll(async () => {
    t = await createTestApp();
    const server = t.app.nest.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await t.close();
  });

  interface Probe {
    /** Milliseconds from connecting until the server closed the socket (Infinity: it never did). */
    closedAfterMs: number;
    /** Everything the server sent. */
    received: string;
  }

  /** Connects, runs `drive` (which writes slowly), and reports when the server ends the connection. */
  function probe(drive: (socket: Socket, stopped: () => boolean) => Promise<void>): Promise<Probe> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const started = Date.now();
      let received = '';
      let done = false;
      const finish = (closedAfterMs: number) => {
        if (done) return;
        done = true;
        clearTimeout(giveUp);
        socket.destroy();
        resolve({ closedAfterMs, received });
      };
      const giveUp = setTimeout(() => finish(Infinity), GIVE_UP_MS);
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('close', () => finish(Date.now() - started));
      socket.on('error', () => finish(Date.now() - started));
      socket.on('connect', () => void drive(socket, () => done).catch(() => undefined));
    });
  }

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('closes slow headers, silent connections, idle keep-alive connections and trickled bodies within the bounds', async () => {
    const [slowHeaders, silent, idle, trickled] = await Promise.all([
      // Headers one line every 2 s, never finished.
      probe(async (socket, stopped) => {
        socket.write('GET /health/live HTTP/1.1\r\nHost: arcade.test\r\n');
        for (let i = 0; !stopped(); i++) {
          await pause(2_000);
          if (!stopped()) socket.write(`X-Slow-${i}: ${i}\r\n`);
        }
      }),
      // Connected, then nothing at all.
      probe(async () => undefined),
      // One complete request with keep-alive, then idle.
      probe(async (socket) => {
        socket.write('GET /health/live HTTP/1.1\r\nHost: arcade.test\r\nConnection: keep-alive\r\n\r\n');
      }),
      // A body of 1,000 bytes announced, one byte a second.
      probe(async (socket, stopped) => {
        socket.write('POST /auth/login HTTP/1.1\r\nHost: arcade.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
        while (!stopped()) {
          await pause(1_000);
          if (!stopped()) socket.write(' ');
        }
      }),
    ]);

    // The bounds of docs/operations.md (headers 15 s, whole request 30 s, keep-alive idle 5 s), each with slack.
    const bounds = { slowHeaders: 15_000, silent: 15_000, idle: 5_000, trickled: 30_000 };
    const closedAfterMs = { slowHeaders: slowHeaders.closedAfterMs, silent: silent.closedAfterMs, idle: idle.closedAfterMs, trickled: trickled.closedAfterMs };
    const verdict = Object.fromEntries(Object.entries(closedAfterMs).map(([probe, ms]) => [probe, ms < bounds[probe as keyof typeof bounds] + SLACK_MS ? 'closed in time' : ms]));
    expect(verdict).toEqual({ slowHeaders: 'closed in time', silent: 'closed in time', idle: 'closed in time', trickled: 'closed in time' });
    expect(slowHeaders.received).toMatch(/^HTTP\/1\.1 408 /);
    // The keep-alive connection was answered, then closed once idle.
    expect(idle.received).toMatch(/^HTTP\/1\.1 200 /);
    // The trickled body was never served: answered 503 (the request deadline) or 408.
    expect(trickled.received).toMatch(/^HTTP\/1\.1 (503|408) /);
  }, 90_000);
});
