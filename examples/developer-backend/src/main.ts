/**
 * Runs the example backend: ARCADE_URL, ARCADE_API_KEY (live), ARCADE_WEBHOOK_SECRET (or two,
 * comma-separated, while switching to a rotated secret), optional ARCADE_GAME_ID and PORT (3100).
 *   npm run build -w @arcade-coin/example-developer-backend && npm start -w @arcade-coin/example-developer-backend
 */
import { createBackend } from './backend';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (see examples/developer-backend/src/main.ts)`);
  return value;
}

const { server } = createBackend({
  arcadeUrl: required('ARCADE_URL'),
  apiKey: required('ARCADE_API_KEY'),
  webhookSecret: required('ARCADE_WEBHOOK_SECRET').split(','),
  ...(process.env.ARCADE_GAME_ID ? { gameId: process.env.ARCADE_GAME_ID } : {}),
});
const port = Number(process.env.PORT ?? 3100);
server.listen(port, () => console.log(`developer backend listening on http://localhost:${port}`));
