/**
 * `/me/settings` (CONTRACT §20, §17): the signed-in person's own account settings, a section per
 * kind of change under its own heading: "Change password" and "Signed-in devices" (one device or
 * every other one signed out, no confirmation asked: §17.2 lists this as not destructive).
 */
import { ApiForm, Cell, LongText, Submit, TextField, When } from '../../http/pages/components';
import { Layout, Viewer } from '../../http/pages/layout';
import type { DeviceRow } from './login-session.repository';
import type { PendingEmailChange } from './email-change.repository';
import { ChangeEmail } from './settings-email';
import { AccountData } from './settings-erasure';
import { TwoFactorSettings } from './settings-two-factor';

export type SettingsDevice = DeviceRow & { current: boolean };

function ChangePassword() {
  return (
    <section class="panel narrow" aria-labelledby="password-heading">
      <ApiForm id="change-password" method="POST" action="/api/me/password" labelledBy="password-heading" flash="Password changed. Your other devices are signed out.">
        <h2 id="password-heading">Change password</h2>
        <p>Every other device signed in to this account is signed out.</p>
        <TextField id="current-password" label="Current password" name="currentPassword" type="password" autocomplete="current-password" required />
        <TextField id="new-password" label="New password" name="newPassword" type="password" autocomplete="new-password" required hint="8 to 128 characters." />
        <Submit>Change password</Submit>
      </ApiForm>
    </section>
  );
}

function deviceName(device: SettingsDevice): string {
  return device.user_agent ?? 'Unknown device';
}

function Devices(props: { devices: SettingsDevice[] }) {
  const others = props.devices.filter((d) => !d.current).length;
  return (
    <section aria-labelledby="devices-heading">
      <h2 id="devices-heading">Signed-in devices</h2>
      <p>Where this account is signed in. Signing a device out ends its session at once.</p>
      <div data-region="" id="devices-region">
        <table class="data devices">
          <caption class="visually-hidden">Signed-in devices</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.devices.map((device) => (
              <tr data-device-id={device.id}>
                <Cell label="Device">
                  <LongText text={deviceName(device)} />
                </Cell>
                <Cell label="Signed in">
                  <When at={device.created_at} />
                </Cell>
                <Cell label="Last used">
                  <When at={device.last_seen_at} />
                </Cell>
                <Cell label="Action">
                  {device.current ? (
                    <strong class="badge">This device</strong>
                  ) : (
                    <ApiForm
                      method="DELETE"
                      action={`/api/me/sessions/${encodeURIComponent(device.id)}`}
                      label={`Sign out ${deviceName(device)}`}
                      after="refresh"
                      flash="Device signed out."
                      class="api-form row-action"
                    >
                      <button type="submit" class="button secondary small">
                        Sign out
                      </button>
                    </ApiForm>
                  )}
                </Cell>
              </tr>
            ))}
          </tbody>
        </table>
        {others > 0 ? (
          <ApiForm method="POST" action="/api/me/sessions/revoke-others" label="Sign out everywhere else" after="refresh" flash="Signed out everywhere else.">
            <Submit variant="secondary">Sign out everywhere else</Submit>
          </ApiForm>
        ) : (
          <p>No other device is signed in.</p>
        )}
      </div>
    </section>
  );
}

export function SettingsPage(props: { viewer: Viewer; devices: SettingsDevice[]; pendingEmail?: PendingEmailChange | null; twoFactorOn?: boolean }) {
  return (
    <Layout title="Settings" viewer={props.viewer} page="me-settings" section="me" path="/me/settings">
      <h1>Settings</h1>
      <p class="lead">{props.viewer.email}</p>
      <ChangePassword />
      <ChangeEmail email={props.viewer.email} pending={props.pendingEmail ?? null} />
      <Devices devices={props.devices} />
      <TwoFactorSettings on={props.twoFactorOn ?? false} />
      <AccountData />
    </Layout>
  );
}
