import { h } from 'preact';
import { renderPage } from '../../http/pages/layout';
import { LoginPage } from './login-page';

describe('the sign-in page', () => {
  it('escapes the return path it puts in an attribute', () => {
    const html = renderPage(h(LoginPage, { next: '/x?a="><script>alert(1)</script>' }));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('data-next="/x?a=&quot;>&lt;script>alert(1)&lt;/script>"');
  });
});
