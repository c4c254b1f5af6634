import { canonicalJson, requestFingerprint } from './idempotency.fingerprint';

describe('request fingerprints', () => {
  it('ignores key order at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(requestFingerprint('insert-coin', 's1', { a: 1, b: 2 })).toBe(requestFingerprint('insert-coin', 's1', { b: 2, a: 1 }));
  });

  it('differs by endpoint, path id and body', () => {
    const base = requestFingerprint('score', 's1', { score: 10, idempotencyKey: 'k1234567' });
    expect(requestFingerprint('insert-coin', 's1', { score: 10, idempotencyKey: 'k1234567' })).not.toBe(base);
    expect(requestFingerprint('score', 's2', { score: 10, idempotencyKey: 'k1234567' })).not.toBe(base);
    expect(requestFingerprint('score', 's1', { score: 11, idempotencyKey: 'k1234567' })).not.toBe(base);
  });

  it('does not confuse a string with a number', () => {
    expect(requestFingerprint('score', 's1', { score: 10 })).not.toBe(requestFingerprint('score', 's1', { score: '10' }));
  });
});
