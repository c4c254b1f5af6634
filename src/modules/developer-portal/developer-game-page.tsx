/**
 * `/developer/games/{gameId}` (CONTRACT §17.1): settings, status and "Unpublish", versions
 * ("Preview", "Publish", "Add version") and achievements ("Edit", "Retire", "Add achievement",
 * the 18-icon picker, each one's unlock count).
 */
import { ApiForm, Cell, Checkbox, DataTable, Hidden, Icon, IconPicker, LongText, NumberField, Submit, TextArea, TextField, When } from '../../http/pages/components';
import { wholeNumberText } from '../../http/pages/formats';
import { ConfirmDialog } from '../../http/pages/confirm-dialog';
import type { DeveloperViewer } from '../../http/pages/page-auth';
import type { AchievementDefinitionView } from './achievement-definitions.service';
import { DeveloperLayout } from './developer-layout';
import { DescriptionField, ThumbnailSettings } from './game-face-settings';
import type { GameRecord, VersionRecord, VersionStatus } from './game.repository';

export interface DeveloperGamePageProps {
  viewer: DeveloperViewer;
  game: GameRecord;
  versions: VersionRecord[];
  achievements: AchievementDefinitionView[];
}

/** A version's status in words (CONTRACT §17.2: the next step is said). */
const VERSION_STATUS: Record<VersionStatus, string> = { pending: 'Waiting for review', approved: 'Approved', rejected: 'Rejected' };

function gamePath(game: GameRecord): string {
  return `/api/portal/games/${encodeURIComponent(game.id)}`;
}

function Status(props: { game: GameRecord }) {
  const { game } = props;
  return (
    <div class="actions status-line">
      <p>
        Status: <strong class={`status status-${game.status}`}>{game.status}</strong>
        {game.status === 'published' ? (
          <>
            {' '}
            · <a href={`/games/${game.slug}`}>Public page</a>
          </>
        ) : null}
      </p>
      {game.status === 'published' ? (
        <ConfirmDialog
          id="unpublish"
          opener="Unpublish"
          openerVariant="secondary"
          title={`Unpublish “${game.title}”?`}
          confirm="Confirm unpublish"
          request={{ method: 'POST', action: `${gamePath(game)}/unpublish`, flash: 'The game is unpublished.' }}
        >
          <p>It leaves the catalogue, and players can no longer start it or go on with rounds already under way.</p>
          <p>Its versions, scores and achievements stay: publish an approved version again whenever you like.</p>
        </ConfirmDialog>
      ) : null}
      {game.status === 'suspended' ? (
        <p class="notice" data-tone="error">
          An administrator suspended this game: players cannot start it, and you cannot publish or preview it until an administrator lifts the
          suspension. You can still change its settings, versions and achievements.
        </p>
      ) : null}
    </div>
  );
}

function Settings(props: { game: GameRecord }) {
  const { game } = props;
  return (
    <div class="panel narrow">
      <ApiForm method="PATCH" action={gamePath(game)} labelledBy="settings-heading" flash="Settings saved.">
        <h2 id="settings-heading">Settings</h2>
        <TextField id="settings-title" label="Title" name="title" value={game.title} required hint="1 to 80 characters." />
        <NumberField id="settings-price" label="Coins per credit" name="coinsPerCredit" value={game.coinsPerCredit} min={1} max={5} required hint="1 to 5 coins; running play sessions keep their price." />
        <NumberField id="settings-max-score" label="Max score" name="maxScore" value={game.maxScore} min={0} hint="Scores above it are refused (at most 9007199254740991)." />
        <DescriptionField value={game.description} />
        <Submit>Save</Submit>
      </ApiForm>
    </div>
  );
}

function Versions(props: { game: GameRecord; versions: VersionRecord[]; viewer: DeveloperViewer }) {
  const { game } = props;
  // A suspended game refuses publishing (409 GAME_SUSPENDED) and its owner's preview session (§16.1:
  // only admins play a suspended game), so neither is offered; the notice above says why.
  const suspended = game.status === 'suspended';
  const canPreview = !suspended || props.viewer.isAdmin;
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      {suspended ? (
        <p class="hint">Publishing and previewing are not possible while the game is suspended.</p>
      ) : null}
      <DataTable
        caption="Versions"
        captionHidden
        columns={['Label', 'Entry URL', 'Status', 'Rejection reason', 'Added', 'Actions']}
        rows={props.versions}
        empty="No versions yet: add the entry URL of your first build below."
        row={(version) => {
              const live = game.status === 'published' && game.currentVersionId === version.id;
              return (
                <tr>
                  <Cell label="Label" class="nowrap">
                    {version.label}
                  </Cell>
                  <Cell label="Entry URL" class="mono">
                    <LongText text={version.entryUrl} />
                  </Cell>
                  <Cell label="Status">
                    <span class={`status status-${version.status}`}>{VERSION_STATUS[version.status]}</span>
                    {live ? ' · live' : null}
                  </Cell>
                  <Cell label="Rejection reason">{version.rejectReason ?? '—'}</Cell>
                  <Cell label="Added">
                    <When at={version.createdAt} />
                  </Cell>
                  <Cell label="Actions">
                    <div class="actions">
                      {canPreview ? (
                        <a class="button secondary small" href={`/play/${game.slug}?version=${encodeURIComponent(version.id)}`}>
                          Preview
                        </a>
                      ) : (
                        <span class="hint">None while suspended</span>
                      )}
                      {version.status === 'approved' && !live && !suspended ? (
                        <ApiForm method="POST" action={`${gamePath(game)}/publish`} class="row-action" flash={`Version ${version.label} is published.`}>
                          <Hidden name="versionId" value={version.id} />
                          <Submit variant="primary">Publish</Submit>
                        </ApiForm>
                      ) : null}
                    </div>
                  </Cell>
                </tr>
              );
            }}
      />
      <div class="panel narrow">
        <ApiForm method="POST" action={`${gamePath(game)}/versions`} labelledBy="add-version-heading" flash="Version added. It waits for an admin's review: once it is approved, its row offers Publish.">
          <h2 id="add-version-heading">Add version</h2>
          <TextField id="version-label" label="Label" name="label" required hint="1 to 40 characters, e.g. 1.2.0. An admin reviews each new version before you can publish it." />
          <TextField id="version-entry-url" label="Entry URL" name="entryUrl" type="url" required spellcheck={false} hint="An absolute http(s) URL, or a path on this service beginning with /." />
          <Submit>Add version</Submit>
        </ApiForm>
      </div>
    </section>
  );
}

/** Key, Name, Description, Icon and Secret: the add form's fields, and the edit form's. */
function AchievementFields(props: { id: string; value?: AchievementDefinitionView }) {
  const { id, value } = props;
  return (
    <>
      <TextField id={`${id}-key`} label="Key" name="key" value={value?.key} required spellcheck={false} hint="Lower-case letters, digits, - and _, up to 48; your game unlocks it by this key. Locked once a player has it." />
      <TextField id={`${id}-name`} label="Name" name="name" value={value?.name} required hint="1 to 40 characters." />
      <TextArea id={`${id}-description`} label="Description" name="description" value={value?.description} hint="Up to 160 characters." />
      <IconPicker id={`${id}-icon`} value={value?.iconKey} />
      <Checkbox id={`${id}-secret`} label="Secret" name="secret" checked={value?.secret} hint="Shown as ??? to players until they unlock it." />
    </>
  );
}

function EditAchievement(props: { game: GameRecord; achievement: AchievementDefinitionView; index: number }) {
  const { achievement, index } = props;
  const id = `edit-${index}`;
  return (
    <>
      <button type="button" class="button secondary small" data-edit={`${id}-template`} aria-haspopup="dialog">
        Edit
      </button>
      {/* The form lives in a template until "Edit" opens it: the row's text stays the row's own. */}
      <template id={`${id}-template`}>
        <dialog aria-labelledby={`${id}-heading`}>
          <ApiForm method="PATCH" action={`${gamePath(props.game)}/achievements/${encodeURIComponent(achievement.key)}`} labelledBy={`${id}-heading`} flash="Achievement saved.">
            <h2 id={`${id}-heading`}>{`Edit ${achievement.name}`}</h2>
            <AchievementFields id={id} value={achievement} />
            <div class="actions">
              <Submit>Save</Submit>
              <button type="button" class="button secondary" data-close="">
                Cancel
              </button>
            </div>
          </ApiForm>
        </dialog>
      </template>
    </>
  );
}

function Achievements(props: { game: GameRecord; achievements: AchievementDefinitionView[] }) {
  const { game } = props;
  return (
    <section aria-labelledby="achievements-heading">
      <h2 id="achievements-heading">Achievements</h2>
      <table class="data">
        <caption class="visually-hidden">Achievements</caption>
        <thead>
          <tr>
            <th scope="col">Icon</th>
            <th scope="col">Key</th>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Secret</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Unlocks
            </th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.achievements.length === 0 ? (
            <tr>
              <td colspan={8}>No achievements yet.</td>
            </tr>
          ) : (
            props.achievements.map((achievement, index) => (
              <tr>
                <Cell label="Icon">
                  <Icon iconKey={achievement.iconKey} /> <span class="hint">{achievement.iconKey}</span>
                </Cell>
                <Cell label="Key" class="mono">
                  <LongText text={achievement.key} />
                </Cell>
                <Cell label="Name">{achievement.name}</Cell>
                <Cell label="Description">{achievement.description}</Cell>
                <Cell label="Secret">{achievement.secret ? 'yes' : 'no'}</Cell>
                <Cell label="Status">{achievement.status}</Cell>
                <Cell label="Unlocks" class="num">
                  {wholeNumberText(achievement.unlockCount)}
                </Cell>
                <Cell label="Actions">
                  <div class="actions">
                    <EditAchievement game={game} achievement={achievement} index={index} />
                    {achievement.status === 'active' ? (
                      <ConfirmDialog
                        id={`retire-${index}`}
                        opener="Retire"
                        title={`Retire “${achievement.name}”?`}
                        confirm="Confirm retire"
                        request={{ method: 'POST', action: `${gamePath(game)}/achievements/${encodeURIComponent(achievement.key)}/retire`, flash: `${achievement.name} is retired.` }}
                      >
                        <p>Players who have it keep it; nobody can unlock it any more.</p>
                        <p>A retired achievement cannot be made active again, and it still counts toward the 50 a game may have.</p>
                      </ConfirmDialog>
                    ) : null}
                  </div>
                </Cell>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <div class="panel narrow">
        <ApiForm method="POST" action={`${gamePath(game)}/achievements`} labelledBy="add-achievement-heading" flash="Achievement added.">
          <h2 id="add-achievement-heading">Add achievement</h2>
          <AchievementFields id="add" />
          <Submit>Add achievement</Submit>
        </ApiForm>
      </div>
    </section>
  );
}

export function DeveloperGamePage(props: DeveloperGamePageProps) {
  const { game } = props;
  return (
    <DeveloperLayout title={game.title} viewer={props.viewer} page="developer-game" current="game">
      <h1>{game.title}</h1>
      <p class="lead mono">/play/{game.slug}</p>
      <Status game={game} />
      <Settings game={game} />
      <ThumbnailSettings game={game} />
      <Versions game={game} versions={props.versions} viewer={props.viewer} />
      <Achievements game={game} achievements={props.achievements} />
    </DeveloperLayout>
  );
}
