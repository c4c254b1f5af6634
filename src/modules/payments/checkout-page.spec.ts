import { returnPath } from './checkout-page';

describe('the checkout page\'s "Continue" target', () => {
  it('is the return path when it is a path on this origin', () => {
    expect(returnPath('/me')).toBe('/me');
    expect(returnPath('/play/coin-clicker')).toBe('/play/coin-clicker');
    expect(returnPath('/play/coin-clicker?x=1')).toBe('/play/coin-clicker?x=1');
    expect(returnPath('/')).toBe('/');
  });

  it('is /me otherwise', () => {
    for (const raw of [undefined, '', 'me', '//evil.example', '/\\evil.example', 'https://evil.example/', ['/me'], 42]) {
      expect(returnPath(raw)).toBe('/me');
    }
  });
});
