import { h } from 'preact';
import type { AccountContext } from '../account-auth';
import { Layout, NotFoundPage, renderPage } from './layout';

const viewer = (overrides: Partial<AccountContext> = {}): AccountContext => ({
  accountId: 'a1',
  email: 'ada@example.test',
  emailVerified: true,
  displayName: 'Ada',
  isAdmin: false,
  developerId: null,
  playerId: 'p1',
  walletId: 'w1',
  walletFrozen: false,
  playerInitials: null,
  loginSessionId: 's1',
  ...overrides,
});

describe('the layout', () => {
  it('escapes what a page puts in text and attributes', () => {
    const named = renderPage(h(Layout, { title: '</title><b>', viewer: viewer({ displayName: '<img src=x onerror=alert(1)>' }), page: 'x', children: 'hi' }));
    expect(named).not.toContain('<img src=x');
    expect(named).toContain('&lt;img src=x onerror=alert(1)>');
  });

  it('shows Admin to admins only, and Sign out or Sign in', () => {
    const admin = renderPage(h(Layout, { title: 'T', viewer: viewer({ isAdmin: true }), page: 'x', children: null }));
    expect(admin).toContain('href="/admin"');
    expect(admin).toContain('Sign out');
    const player = renderPage(h(Layout, { title: 'T', viewer: viewer(), page: 'x', children: null }));
    expect(player).not.toContain('href="/admin"');
    const visitor = renderPage(h(Layout, { title: 'T', viewer: null, page: 'x', path: '/games/a?b=c', children: null }));
    expect(visitor).toContain('href="/auth/login?next=%2Fgames%2Fa%3Fb%3Dc"');
    expect(visitor).not.toContain('Sign out');
  });

  it('renders the 404 page with the header and nothing else of the resource', () => {
    const html = renderPage(h(NotFoundPage, { viewer: viewer(), path: '/developer/games/secret-id' }));
    expect(html).toContain('<h1>Not found</h1>');
    expect(html).toContain('<header class="topbar">');
    expect(html).not.toContain('secret-id');
  });
});
