/**
 * Issue 27 item 13, CONTRACT §17.2 "Games have a face": a game's description (PATCH, 0 to 2,000
 * characters, plain text), its thumbnail (PUT an image body: re-encoded once to 640×360 WebP
 * with its metadata dropped, stored in PostgreSQL, served by this service with a year's cache
 * and an ETag; DELETE), both carried by the portal's and the catalogue's game objects, and the
 * catalogue's `?query=` search on title and slug.
 */
import sharp from 'sharp';
import type { Response } from 'supertest';
import { TestApp } from '../support/app';
import { createDeveloper, createGame, createWorldApp, Developer, publishGame, unique } from '../support/factories';

const TWO_MB = 2 * 1024 * 1024;
const THUMBNAIL_URL = /^\/media\/games\/[0-9a-f-]{36}\/thumbnail-[0-9a-f]{16,64}\.webp$/;

/** A real image of the given size and format, made the way a camera or an editor would (EXIF included where asked). */
async function image(format: 'png' | 'jpeg' | 'webp' | 'gif', width: number, height: number, options: { exif?: boolean; orientation?: number } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#1d3557"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#ffb703"/></svg>`;
  let pipeline = sharp(Buffer.from(svg));
  if (options.exif) pipeline = pipeline.withExif({ IFD0: { Artist: 'Secret Photographer', Copyright: 'Where I live' } });
  if (options.orientation) pipeline = pipeline.withMetadata({ orientation: options.orientation });
  return pipeline.toFormat(format).toBuffer();
}

describe('games have a face (CONTRACT §17.2, issue 27 item 13)', () => {
  let t: TestApp;
  let dev: Developer;
  let other: Developer;

  beforeAll(async () => {
    // A database of its own: the search asserts the whole catalogue.
    t = await createWorldApp();
    dev = await createDeveloper(t);
    other = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  const put = (who: { cookie: string }, gameId: string, body: Buffer | string, type: string) =>
    t.http().put(`/api/portal/games/${gameId}/thumbnail`).set('Cookie', who.cookie).set('Content-Type', type).send(body);

  function expectError(res: Response, status: number, code: string): void {
    expect({ status: res.status, error: res.body.error }).toEqual({ status, error: code });
    expect(res.body.message).toMatch(/^[A-Z].*\.$/);
  }

  describe('description', () => {
    it('starts null, takes 0 to 2,000 characters of plain text with its line breaks, and reaches the portal and the catalogue', async () => {
      const game = await publishGame(t, dev, { title: 'Described Game' });
      const fresh = await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).expect(200);
      expect(fresh.body).toMatchObject({ description: null, thumbnailUrl: null });

      const text = 'Tap the coin.\nBeat the clock.\n\n<b>Not bold</b> & not HTML.';
      const patched = await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).send({ description: text }).expect(200);
      expect(patched.body).toMatchObject({ gameId: game.gameId, title: 'Described Game', description: text, thumbnailUrl: null });
      expect((await t.http().get('/api/portal/games').set('Cookie', dev.cookie).expect(200)).body.find((g: { gameId: string }) => g.gameId === game.gameId)).toMatchObject({ description: text });
      expect((await t.http().get(`/api/games/${game.slug}`).expect(200)).body).toMatchObject({ slug: game.slug, description: text, thumbnailUrl: null });
      const listed = (await t.http().get('/api/games?limit=100').expect(200)).body.games.find((g: { slug: string }) => g.slug === game.slug);
      expect(listed).toEqual({ slug: game.slug, title: 'Described Game', coinsPerCredit: 1, description: text, thumbnailUrl: null });

      // Other fields leave it alone; exactly 2,000 characters fit; "" (or null) removes it.
      await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).send({ title: 'Renamed' }).expect(200);
      expect((await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie)).body.description).toBe(text);
      const longest = 'é'.repeat(1999) + '\n';
      expect((await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).send({ description: longest }).expect(200)).body.description).toBe(longest);
      expect((await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).send({ description: '' }).expect(200)).body.description).toBeNull();
      await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).send({ description: 'Back.' }).expect(200);
      expect((await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).send({ description: null }).expect(200)).body.description).toBeNull();
      expect((await t.db.query('SELECT description FROM games WHERE id = $1', [game.gameId])).rows[0].description).toBe('');
    });

    it.each([
      ['2,001 characters', 'x'.repeat(2001)],
      ['a number', 42],
      ['an object', { text: 'hi' }],
    ])('refuses %s with 400 INVALID_REQUEST naming the field in words', async (_name, description) => {
      const game = await createGame(t, dev);
      const res = await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).send({ description });
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.body.message).toMatch(/^Description/);
      expect((await t.db.query('SELECT description FROM games WHERE id = $1', [game.gameId])).rows[0].description).toBe('');
    });

    it('answers 404 for another developer\'s game', async () => {
      const game = await createGame(t, dev);
      expectError(await t.http().patch(`/api/portal/games/${game.gameId}`).set('Cookie', other.cookie).send({ description: 'Mine now.' }), 404, 'NOT_FOUND');
    });
  });

  describe('thumbnail', () => {
    it('re-encodes a PNG once to 640×360 WebP, served with a year\'s cache and an ETag, the same bytes as stored', async () => {
      const game = await publishGame(t, dev, { title: 'Pictured Game' });
      const res = await put(dev, game.gameId, await image('png', 1280, 720), 'image/png').expect(200);
      expect(res.body).toEqual({ thumbnailUrl: expect.stringMatching(THUMBNAIL_URL) });
      expect(res.body.thumbnailUrl).toContain(`/media/games/${game.gameId}/`);
      const url: string = res.body.thumbnailUrl;

      const served = await t.http().get(url).buffer(true).parse(binary).expect(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['etag']).toMatch(/^"[0-9a-f]+"$/);
      expect(served.headers['vary'] ?? '').not.toMatch(/cookie/i);
      const bytes = served.body as Buffer;
      const meta = await sharp(bytes).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 640, height: 360 });
      const stored = await t.db.query('SELECT image FROM game_thumbnails WHERE game_id = $1', [game.gameId]);
      expect(Buffer.compare(stored.rows[0].image, bytes)).toBe(0);

      // Revalidation answers 304; the portal and the catalogue carry the same URL.
      await t.http().get(url).set('If-None-Match', served.headers['etag']!).expect(304);
      expect((await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie)).body.thumbnailUrl).toBe(url);
      expect((await t.http().get(`/api/games/${game.slug}`)).body.thumbnailUrl).toBe(url);
      expect((await t.http().get('/api/games?limit=100')).body.games.find((g: { slug: string }) => g.slug === game.slug).thumbnailUrl).toBe(url);
    });

    it('drops a JPEG\'s EXIF after applying its orientation, and judges the size as the picture is seen', async () => {
      const game = await createGame(t, dev);
      const withExif = await image('jpeg', 1000, 700, { exif: true });
      expect((await sharp(withExif).metadata()).exif).toBeDefined();
      const first = await put(dev, game.gameId, withExif, 'image/jpeg').expect(200);
      const meta = await sharp((await t.http().get(first.body.thumbnailUrl).buffer(true).parse(binary)).body as Buffer).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif, icc: meta.icc, orientation: meta.orientation }).toEqual({
        format: 'webp', width: 640, height: 360, exif: undefined, icc: undefined, orientation: undefined,
      });

      // Stored 200×400 but shown 400×200 (orientation 6: turn 90°): wide enough once turned.
      const turned = await put(dev, game.gameId, await image('jpeg', 200, 400, { orientation: 6 }), 'image/jpeg').expect(200);
      expect(turned.body.thumbnailUrl).not.toBe(first.body.thumbnailUrl);
      // A WebP is taken too; the old address no longer answers.
      await put(dev, game.gameId, await image('webp', 320, 180), 'image/webp').expect(200);
      expectError(await t.http().get(turned.body.thumbnailUrl), 404, 'NOT_FOUND');
    });

    it.each([
      ['bytes that are not an image', () => Promise.resolve(Buffer.from('this is not a picture at all')), 'image/png'],
      ['an image of 100×100 px', () => image('png', 100, 100), 'image/png'],
      ['an image 319 px wide', () => image('png', 319, 400), 'image/png'],
      ['an image 179 px high', () => image('jpeg', 800, 179), 'image/jpeg'],
      ['a GIF sent as PNG', () => image('gif', 640, 360), 'image/png'],
      ['an SVG sent as PNG', () => Promise.resolve(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600"/></svg>')), 'image/png'],
      ['a truncated PNG', async () => (await image('png', 800, 600)).subarray(0, 60), 'image/png'],
    ])('refuses %s with 400 INVALID_REQUEST and keeps the thumbnail it had', async (_name, make, type) => {
      const game = await createGame(t, dev);
      const kept = await put(dev, game.gameId, await image('png', 640, 360), 'image/png').expect(200);
      expectError(await put(dev, game.gameId, await make(), type), 400, 'INVALID_REQUEST');
      expect((await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie)).body.thumbnailUrl).toBe(kept.body.thumbnailUrl);
    });

    it('refuses an empty body with 400 INVALID_REQUEST', async () => {
      const game = await createGame(t, dev);
      expectError(await t.http().put(`/api/portal/games/${game.gameId}/thumbnail`).set('Cookie', dev.cookie).set('Content-Type', 'image/png'), 400, 'INVALID_REQUEST');
    });

    it.each([
      ['text/plain', 'text/plain'],
      ['image/gif', 'image/gif'],
      ['application/json', 'application/json'],
      ['image/svg+xml', 'image/svg+xml'],
    ])('refuses a body of type %s with 415 UNSUPPORTED_MEDIA_TYPE', async (_name, type) => {
      const game = await createGame(t, dev);
      const body = type === 'image/gif' ? await image('gif', 640, 360) : type === 'application/json' ? '{"image":"x"}' : 'hello';
      const res = await put(dev, game.gameId, body, type);
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.message).toMatch(/PNG, JPEG or WebP/);
    });

    it('refuses more than 2 MB with 413 PAYLOAD_TOO_LARGE, and takes 2 MB exactly as far as size goes', async () => {
      const game = await createGame(t, dev);
      const res = await put(dev, game.gameId, Buffer.alloc(TWO_MB + 1, 1), 'image/png');
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
      expect(res.body.message).toMatch(/2 MB/);
      // Exactly 2 MB passes the size check (and is then not an image).
      expectError(await put(dev, game.gameId, Buffer.alloc(TWO_MB, 1), 'image/png'), 400, 'INVALID_REQUEST');
    });

    it('takes uploads that arrive together one at a time: each answers 200 (or 503 to retry when too many wait), and the last stored is one of them', async () => {
      const game = await createGame(t, dev);
      const pictures = await Promise.all(Array.from({ length: 8 }, (_, i) => image('png', 1200 + i * 40, 900)));
      const answers = await Promise.all(pictures.map((picture) => put(dev, game.gameId, picture, 'image/png')));
      for (const res of answers) {
        if (res.status === 503) {
          expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
          expect(res.headers['retry-after']).toBe('1');
        } else expect(res.status).toBe(200);
      }
      const given = answers.filter((res) => res.status === 200).map((res) => res.body.thumbnailUrl as string);
      expect(given.length).toBeGreaterThanOrEqual(1);
      const stored = (await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie)).body.thumbnailUrl;
      expect(given).toContain(stored);
      await t.http().get(stored).expect(200);
    });

    it('DELETE answers 204 (again too), and the game has no thumbnail after', async () => {
      const game = await publishGame(t, dev);
      const { body } = await put(dev, game.gameId, await image('png', 640, 360), 'image/png').expect(200);
      await t.http().delete(`/api/portal/games/${game.gameId}/thumbnail`).set('Cookie', dev.cookie).expect(204);
      await t.http().delete(`/api/portal/games/${game.gameId}/thumbnail`).set('Cookie', dev.cookie).expect(204);
      expect((await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie)).body.thumbnailUrl).toBeNull();
      expect((await t.http().get(`/api/games/${game.slug}`)).body.thumbnailUrl).toBeNull();
      expect((await t.db.query('SELECT count(*)::int AS n FROM game_thumbnails WHERE game_id = $1', [game.gameId])).rows[0].n).toBe(0);
      expectError(await t.http().get(body.thumbnailUrl), 404, 'NOT_FOUND');
    });

    it('answers another developer\'s game 404, a signed-out caller 401 and another origin 403, changing nothing', async () => {
      const game = await createGame(t, dev);
      const { body } = await put(dev, game.gameId, await image('png', 640, 360), 'image/png').expect(200);
      const png = await image('png', 640, 360);
      expectError(await put(other, game.gameId, png, 'image/png'), 404, 'NOT_FOUND');
      expectError(await t.http().delete(`/api/portal/games/${game.gameId}/thumbnail`).set('Cookie', other.cookie), 404, 'NOT_FOUND');
      expectError(await put(other, '00000000-0000-4000-8000-000000000000', png, 'image/png'), 404, 'NOT_FOUND');
      expectError(await t.http().put(`/api/portal/games/${game.gameId}/thumbnail`).set('Content-Type', 'image/png').send(png), 401, 'UNAUTHENTICATED');
      // Who asks, and whose game it is, come before what was sent.
      expectError(await t.http().put(`/api/portal/games/${game.gameId}/thumbnail`).set('Content-Type', 'text/plain').send('hello'), 401, 'UNAUTHENTICATED');
      expectError(await put(other, game.gameId, 'hello', 'text/plain'), 404, 'NOT_FOUND');
      expectError(await put(dev, game.gameId, png, 'image/png').set('Origin', 'https://evil.example'), 403, 'FORBIDDEN');
      expectError(await t.http().delete(`/api/portal/games/${game.gameId}/thumbnail`).set('Cookie', dev.cookie).set('Sec-Fetch-Site', 'cross-site'), 403, 'FORBIDDEN');
      expect((await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie)).body.thumbnailUrl).toBe(body.thumbnailUrl);
    });

    it('answers 404 NOT_FOUND for a thumbnail address that names no stored image', async () => {
      const game = await createGame(t, dev);
      for (const path of [
        `/media/games/${game.gameId}/thumbnail-0123456789abcdef.webp`,
        '/media/games/00000000-0000-4000-8000-000000000000/thumbnail-0123456789abcdef.webp',
        '/media/games/not-a-uuid/thumbnail-0123456789abcdef.webp',
        `/media/games/${game.gameId}/other.webp`,
      ]) {
        expectError(await t.http().get(path), 404, 'NOT_FOUND');
      }
    });
  });

  describe('GET /api/games?query=', () => {
    let zebra: string;
    let moon: string;
    let percent: string;
    let underscore: string;

    beforeAll(async () => {
      zebra = (await publishGame(t, dev, { title: 'Zebra Dash', slug: unique('stripes') })).slug;
      moon = (await publishGame(t, dev, { title: 'Lunar Lander', slug: unique('moon-zebu') })).slug;
      percent = (await publishGame(t, dev, { title: '100% Fun', slug: unique('fun') })).slug;
      underscore = (await publishGame(t, dev, { title: 'Snake_Case', slug: unique('snake') })).slug;
      // Never published: never found.
      await createGame(t, dev, { title: 'Zebra Hidden' });
    });

    const search = async (query: string) => ((await t.http().get('/api/games').query({ query, limit: 100 }).expect(200)).body.games as { slug: string }[]).map((g) => g.slug);

    it('keeps games whose title or slug contains the text, whatever its case', async () => {
      expect(await search('ZEBRA')).toEqual([zebra]);
      expect(await search('zEb')).toEqual([moon, zebra]);
      expect(await search('MOON-ZEBU')).toEqual([moon]);
      expect(await search('lunar lander')).toEqual([moon]);
      expect(await search('no such game anywhere')).toEqual([]);
    });

    it('reads % and _ as themselves, not as wildcards', async () => {
      expect(await search('%')).toEqual([percent]);
      expect(await search('0% f')).toEqual([percent]);
      expect(await search('_')).toEqual([underscore]);
      expect(await search('e_c')).toEqual([underscore]);
    });

    it('pages a search with its cursor', async () => {
      const first = await t.http().get('/api/games').query({ query: 'zeb', limit: 1 }).expect(200);
      expect(first.body.games.map((g: { slug: string }) => g.slug)).toEqual([moon]);
      const second = await t.http().get('/api/games').query({ query: 'zeb', limit: 1, cursor: first.body.nextCursor }).expect(200);
      expect(second.body).toEqual({ games: [expect.objectContaining({ slug: zebra })], nextCursor: null });
    });

    it.each([
      ['empty', ''],
      ['101 characters', 'a'.repeat(101)],
    ])('refuses a query that is %s with 400 INVALID_REQUEST', async (_name, query) => {
      expectError(await t.http().get('/api/games').query({ query }), 400, 'INVALID_REQUEST');
    });

    it('takes 100 characters', async () => {
      expect(await search('a'.repeat(100))).toEqual([]);
    });
  });
});

/** supertest's parser for a binary answer (the answer is a Node stream at this point). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- superagent types the stream as its own Response
function binary(res: any, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
