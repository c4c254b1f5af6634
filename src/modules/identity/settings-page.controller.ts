import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { sendPage, Viewer } from '../../http/pages/layout';
import { CurrentViewer, Page } from '../../http/pages/page-auth';
import { LoginSessionService } from './login-session.service';
import { EmailChangeService } from './email-change.service';
import { SettingsPage } from './settings-page';
import { TwoFactorService } from './two-factor.service';

/** `/me/settings`: the signed-in person's account settings page (CONTRACT §20). */
@ApiTags('accounts')
@Controller('me')
export class SettingsPageController {
  constructor(
    private readonly loginSessions: LoginSessionService,
    private readonly emailChanges: EmailChangeService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  @Get('settings')
  @Page('signed-in', {
    summary: 'Account settings (HTML)',
    description: 'Change password; change e-mail (with the change waiting for its link); the signed-in devices, each with "Sign out" but this one, and "Sign out everywhere else"; two-factor authentication (set up and turn on, or turn off); "Download my data" and the form "Delete account" (asked in a dialog first).',
  })
  async settings(@CurrentViewer() viewer: Viewer, @Res() res: Response): Promise<void> {
    const devices = await this.loginSessions.devices(viewer.accountId, viewer.loginSessionId);
    const pendingEmail = (await this.emailChanges.pending(viewer.accountId)) ?? null;
    const twoFactorOn = await this.twoFactor.isOn(viewer.accountId);
    sendPage(res, h(SettingsPage, { viewer, devices, pendingEmail, twoFactorOn }));
  }
}
