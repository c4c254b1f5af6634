/**
 * One small template per mail: each gives the subject, a plain-text body and an HTML body with
 * the same words and link. Values are escaped in the HTML (a display name or a link can hold
 * `<` or `&`); the text body carries them as they are.
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** HTML-escapes a value for text and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

interface Letter {
  subject: string;
  /** Paragraphs before the link. */
  lead: string[];
  link: { href: string; label: string };
  /** Paragraphs after the link. */
  after: string[];
}

function render(letter: Letter): MailContent {
  const text = [...letter.lead, letter.link.href, ...letter.after].join('\n\n') + '\n';
  const paragraph = (words: string) => `<p style="margin:0 0 16px">${escapeHtml(words)}</p>`;
  const html =
    '<!doctype html>\n' +
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(letter.subject)}</title></head>` +
    '<body style="margin:0;padding:24px;font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a;background:#ffffff">' +
    letter.lead.map(paragraph).join('') +
    `<p style="margin:0 0 16px"><a href="${escapeHtml(letter.link.href)}" style="color:#0b57d0">${escapeHtml(letter.link.label)}</a></p>` +
    `<p style="margin:0 0 16px;font-size:14px;color:#444444">Or paste this address into your browser: ${escapeHtml(letter.link.href)}</p>` +
    letter.after.map(paragraph).join('') +
    '</body></html>\n';
  return { subject: letter.subject, text, html };
}

/** The link that verifies a new account's e-mail address (valid 48 hours). */
export function verificationMail(link: string): MailContent {
  return render({
    subject: 'Verify your e-mail address',
    lead: ['Welcome to the arcade!', 'Open this link to verify your e-mail address (valid for 48 hours):'],
    link: { href: link, label: 'Verify my e-mail address' },
    after: [],
  });
}

/** The link that sets a new password (valid 60 minutes, once). */
export function passwordResetMail(link: string): MailContent {
  return render({
    subject: 'Reset your password',
    lead: ['Someone asked to reset the password of your arcade account.', 'Open this link to set a new password (valid for 60 minutes, once):'],
    link: { href: link, label: 'Set a new password' },
    after: ['If it was not you, ignore this mail: your password stays as it is.'],
  });
}

/** The link that confirms a new e-mail address, mailed to that address (valid 24 hours, once). */
export function emailChangeConfirmMail(link: string): MailContent {
  return render({
    subject: 'Confirm your new e-mail address',
    lead: [
      'Someone signed in to an arcade account asked to make this its e-mail address.',
      'Open this link to confirm it (valid for 24 hours, once):',
    ],
    link: { href: link, label: 'Confirm my new e-mail address' },
    after: ['Until then the account keeps signing in with its current address. If it was not you, ignore this mail: nothing changes.'],
  });
}

/** A mail with nothing to follow (a notice): render()'s look, without a link. */
function renderNotice(subject: string, paragraphs: string[]): MailContent {
  const text = paragraphs.join('\n\n') + '\n';
  const html =
    '<!doctype html>\n' +
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    '<body style="margin:0;padding:24px;font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a;background:#ffffff">' +
    paragraphs.map((words) => `<p style="margin:0 0 16px">${escapeHtml(words)}</p>`).join('') +
    '</body></html>\n';
  return { subject, text, html };
}

/** The notice to the current address that a change to `newEmail` was asked for: no link, nothing to follow. */
export function emailChangeNoticeMail(newEmail: string): MailContent {
  return renderNotice('Your e-mail address may change', [
    `Someone signed in to your arcade account asked to change its e-mail address to ${newEmail}.`,
    'Nothing changes until the link we sent to that address is followed: until then you keep signing in with this address.',
    'If it was not you, sign in and change your password in Settings.',
  ]);
}

/** Notice that two-factor authentication was turned on (CONTRACT §20); `link` is the account's settings page. */
export function twoFactorOnMail(link: string): MailContent {
  return render({
    subject: 'Two-factor authentication is on',
    lead: [
      'Two-factor authentication was turned on for your arcade account: signing in now asks for a code from your authenticator app after the password.',
      'Keep your recovery codes somewhere safe. Your settings:',
    ],
    link: { href: link, label: 'Open my settings' },
    after: ['If it was not you, reset your password at once and turn two-factor authentication off in your settings.'],
  });
}

/** Notice that two-factor authentication was turned off (CONTRACT §20); `link` is the account's settings page. */
export function twoFactorOffMail(link: string): MailContent {
  return render({
    subject: 'Two-factor authentication is off',
    lead: ['Two-factor authentication was turned off for your arcade account: signing in asks only for the password now.', 'You can turn it on again in your settings:'],
    link: { href: link, label: 'Open my settings' },
    after: ['If it was not you, reset your password at once.'],
  });
}

/** A webhook endpoint whose deliveries all failed for 3 days was disabled (CONTRACT §21); the link opens its delivery log. */
export function webhookDisabledMail(endpointUrl: string, link: string): MailContent {
  return render({
    subject: 'A webhook endpoint was disabled',
    lead: [
      `Every delivery to your webhook endpoint ${endpointUrl} failed for 3 days, so it was disabled: nothing more is sent to it.`,
      'Open its delivery log to see the errors; enable it again once it answers, and its pending deliveries resume:',
    ],
    link: { href: link, label: 'Open the delivery log' },
    after: [],
  });
}
