import type { ComponentChildren } from 'preact';
import { Layout, Viewer } from '../../http/pages/layout';

export type DeveloperSection = 'overview' | 'keys' | 'earnings' | 'payouts' | 'webhooks' | 'game';

const LINKS: { section: DeveloperSection; href: string; label: string }[] = [
  { section: 'overview', href: '/developer', label: 'Overview' },
  { section: 'keys', href: '/developer/keys', label: 'API keys' },
  { section: 'earnings', href: '/developer/earnings', label: 'Earnings' },
  { section: 'payouts', href: '/developer/payouts', label: 'Payouts' },
  { section: 'webhooks', href: '/developer/webhooks', label: 'Webhooks' },
];

/** Every developer-portal page: the layout under "Developer", with the portal's own links. */
export function DeveloperLayout(props: { title: string; viewer: Viewer; page: string; current: DeveloperSection; children: ComponentChildren }) {
  return (
    <Layout title={props.title} viewer={props.viewer} page={props.page} section="developer">
      {props.viewer.developerId ? (
        <nav aria-label="Developer portal" class="subnav">
          <ul>
            {LINKS.map((link) => (
              <li>
                <a href={link.href} aria-current={link.section === props.current ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {props.children}
    </Layout>
  );
}
