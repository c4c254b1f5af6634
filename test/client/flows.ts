/**
 * The service's main flows through a client generated from docs/openapi.json alone
 * (openapi-typescript types + openapi-fetch), as a game developer's or host page's TypeScript
 * would use it: sign up, verify, publish a game, start a play session, insert a coin, score, type
 * initials, read the board, verify the insertion with an API key. Compiled with `tsc --strict`
 * (tsconfig.json here) by the typed-client test, which then runs it against the test app: a
 * document a strict client cannot follow (issue 14: `linkPlayer` required) fails to compile.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './.generated/api';

export interface FlowOptions {
  baseUrl: string;
  admin: { email: string; password: string };
  unique: string;
}

export interface FlowResult {
  balanceAfterInsert: number;
  board: { rank: number; initials: string; score: string }[];
  verifiedCoins: number;
}

type Client = ReturnType<typeof createClient<paths>>;

/** A client that keeps the `auth_session` cookie it is given (fetch in Node keeps none). */
function signedClient(baseUrl: string): { client: Client; setCookie(response: Response): void } {
  const client = createClient<paths>({ baseUrl });
  let cookie = '';
  const withCookie: Middleware = {
    onRequest({ request }) {
      if (cookie) request.headers.set('Cookie', cookie);
      return request;
    },
  };
  client.use(withCookie);
  return {
    client,
    setCookie(response: Response) {
      const header = response.headers.get('set-cookie') ?? '';
      const match = /auth_session=([^;]+)/.exec(header);
      if (match) cookie = `auth_session=${match[1]}`;
    },
  };
}

function must<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function mainFlows(options: FlowOptions): Promise<FlowResult> {
  const { baseUrl, unique } = options;

  // Sign-up without linkPlayer (optional, default true).
  const player = signedClient(baseUrl);
  const signUp = await player.client.POST('/auth/signup', {
    body: { email: `typed-${unique}@example.test`, password: 'typed-client-password', displayName: 'Typed' },
  });
  const playerUser = must(signUp, 'sign up').user;
  player.setCookie(signUp.response);

  const developer = signedClient(baseUrl);
  const devSignUp = await developer.client.POST('/auth/signup', {
    body: { email: `typed-dev-${unique}@example.test`, password: 'typed-client-password', displayName: 'Typed Dev' },
  });
  const devUser = must(devSignUp, 'developer sign up').user;
  developer.setCookie(devSignUp.response);

  const admin = signedClient(baseUrl);
  const adminLogin = await admin.client.POST('/auth/login', { body: { email: options.admin.email, password: options.admin.password } });
  must(adminLogin, 'admin login');
  admin.setCookie(adminLogin.response);
  for (const userId of [playerUser.id, devUser.id]) {
    must(await admin.client.POST('/api/admin/users/{userId}/verify-email', { params: { path: { userId } } }), 'verify e-mail');
  }

  // A published game.
  must(await developer.client.POST('/api/portal/developer', { body: { displayName: 'Typed Studio' } }), 'become developer');
  const slug = `typed-${unique}`;
  const game = must(await developer.client.POST('/api/portal/games', { body: { slug, title: 'Typed Game', coinsPerCredit: 2 } }), 'create game');
  const version = must(
    await developer.client.POST('/api/portal/games/{gameId}/versions', {
      params: { path: { gameId: game.gameId } },
      body: { label: '1.0.0', entryUrl: 'https://games.example.test/typed/' },
    }),
    'add version',
  );
  must(await admin.client.POST('/api/admin/versions/{versionId}/approve', { params: { path: { versionId: version.versionId } } }), 'approve');
  must(
    await developer.client.POST('/api/portal/games/{gameId}/publish', { params: { path: { gameId: game.gameId } }, body: { versionId: version.versionId } }),
    'publish',
  );
  const key = must(await developer.client.POST('/api/portal/keys', { body: { kind: 'live', name: 'typed backend' } }), 'create key');

  // Coins for the player.
  must(
    await admin.client.POST('/api/admin/wallets/{userId}/credits', {
      params: { path: { userId: playerUser.id } },
      body: { coins: 10, reason: 'typed client', idempotencyKey: `typed-credit-${unique}` },
    }),
    'credit coins',
  );

  // Play: session, coin, score, initials, board.
  const session = must(await player.client.POST('/api/play/sessions', { body: { gameSlug: slug } }), 'start play session');
  const coin = must(
    await player.client.POST('/api/play/sessions/{id}/insert-coin', {
      params: { path: { id: session.sessionId } },
      body: { idempotencyKey: `typed-coin-${unique}` },
    }),
    'insert coin',
  );
  const score = must(
    await player.client.POST('/api/play/sessions/{id}/score', {
      params: { path: { id: session.sessionId } },
      body: { score: 4200, idempotencyKey: `typed-score-${unique}` },
    }),
    'score',
  );
  if (score.scoreId === null || !score.needsInitials) throw new Error(`score: expected a saved score that needs initials: ${JSON.stringify(score)}`);
  must(
    await player.client.POST('/api/play/sessions/{id}/score/initials', {
      params: { path: { id: session.sessionId } },
      body: { scoreId: score.scoreId, initials: 'TYP' },
    }),
    'initials',
  );
  const board = must(await createClient<paths>({ baseUrl }).GET('/api/games/{slug}/scores', { params: { path: { slug }, query: { period: 'all' } } }), 'board');

  // The developer's backend verifies the insertion with its API key.
  const backend = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key.key}` } });
  const verified = must(await backend.GET('/api/v1/insertions/{insertionId}', { params: { path: { insertionId: coin.insertionId } } }), 'verify insertion');

  return {
    balanceAfterInsert: coin.balance,
    board: board.scores.map((entry) => ({ rank: entry.rank, initials: entry.initials, score: entry.score })),
    verifiedCoins: verified.coins,
  };
}
