import type { DatabaseNotifications, InvalidationMap, InvalidationTopic } from '../../database/notifications';
import { ApiKeyCache, ApiKeyContext } from './api-key.cache';

/** The notifications as the cache sees them: a listening flag, and what the database would deliver. */
class FakeNotifications {
  listening = true;
  readonly handlers = new Map<string, ((message: never) => void)[]>();
  readonly stateHandlers: ((listening: boolean) => void)[] = [];

  on<K extends InvalidationTopic>(topic: K, handler: (message: InvalidationMap[K]) => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler as (message: never) => void]);
  }

  onState(handler: (listening: boolean) => void): void {
    this.stateHandlers.push(handler);
  }

  deliver<K extends InvalidationTopic>(topic: K, message: InvalidationMap[K]): void {
    for (const handler of this.handlers.get(topic) ?? []) handler(message as never);
  }

  setListening(listening: boolean): void {
    this.listening = listening;
    for (const handler of this.stateHandlers) handler(listening);
  }
}

const key = (keyId: string, developerId = 'dev-1'): ApiKeyContext => ({ keyId, developerId, kind: 'live' });

describe('ApiKeyCache', () => {
  let notifications: FakeNotifications;
  let cache: ApiKeyCache;

  beforeEach(() => {
    notifications = new FakeNotifications();
    cache = new ApiKeyCache(notifications as unknown as DatabaseNotifications);
  });
  afterEach(() => jest.restoreAllMocks());

  it('serves a kept key until its revocation is delivered, and only that key is dropped', () => {
    cache.keep('h1', key('k1'), 'acc-1', cache.mark());
    cache.keep('h2', key('k2'), 'acc-1', cache.mark());
    expect(cache.get('h1')).toEqual(key('k1'));
    notifications.deliver('api-key', { keyId: 'k1' });
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')).toEqual(key('k2'));
  });

  it('drops every key of an account when its ban is delivered', () => {
    cache.keep('h1', key('k1'), 'acc-1', cache.mark());
    cache.keep('h2', key('k2'), 'acc-1', cache.mark());
    cache.keep('h3', key('k3', 'dev-2'), 'acc-2', cache.mark());
    notifications.deliver('account', { accountId: 'acc-1' });
    expect([cache.get('h1'), cache.get('h2'), cache.get('h3')]).toEqual([undefined, undefined, key('k3', 'dev-2')]);
  });

  it('does not keep a key read before an invalidation that came in while the read ran', () => {
    const mark = cache.mark();
    // The read saw the key valid; the revocation committed and was delivered before the read returned.
    notifications.deliver('api-key', { keyId: 'k1' });
    cache.keep('h1', key('k1'), 'acc-1', mark);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('serves nothing and keeps nothing while not listening, and starts empty when listening again', () => {
    cache.keep('h1', key('k1'), 'acc-1', cache.mark());
    notifications.setListening(false);
    expect(cache.get('h1')).toBeUndefined();
    cache.keep('h1', key('k1'), 'acc-1', cache.mark());
    expect(cache.size).toBe(0);
    const mark = cache.mark();
    notifications.setListening(true);
    // A read begun before listening resumed may have missed an invalidation: not kept.
    cache.keep('h1', key('k1'), 'acc-1', mark);
    expect(cache.get('h1')).toBeUndefined();
    cache.keep('h1', key('k1'), 'acc-1', cache.mark());
    expect(cache.get('h1')).toEqual(key('k1'));
  });

  it('reads a key again after a minute', () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    cache.keep('h1', key('k1'), 'acc-1', cache.mark());
    now += 59_999;
    expect(cache.get('h1')).toEqual(key('k1'));
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
