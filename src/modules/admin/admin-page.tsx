/**
 * `/admin` (CONTRACT §17, §17.1): the admin console over the §18–§19 API, one page with the
 * sections "Review", "Games", "Users", "Scores" and "Audit log" and links to them at the top of
 * `<main>`. Every list is rendered here from the services; its `data-region` is rendered again by
 * the page script after an action or a search, with the page's query string holding what each
 * section shows (a search, a chosen game, a page of a list).
 */
import type { ComponentChildren } from 'preact';
import { ApiForm, Cell, DataTable, Hidden, LongText, Money, NumberField, Select, Submit, TextField, When } from '../../http/pages/components';
import { moneyText, wholeNumberText } from '../../http/pages/formats';
import { millsToUsd } from '../wallet';
import { ConfirmDialog, Echo } from '../../http/pages/confirm-dialog';
import { Layout, Viewer } from '../../http/pages/layout';
import type { AuditEntry } from '../audit';
import { BooksSection, type BooksSectionProps } from '../books';
import type { AdminGameView, GameStatus, ReviewView } from '../developer-portal';
import type { AdminUserView } from '../identity';
import type { AdminScoreView } from '../scoring';
import type { PayoutRow } from '../payouts';

/** What the page shows, in its query string: each section keeps its own parameters. */
export interface AdminPageState {
  /** Review: the page of pending versions after this cursor. */
  review?: string;
  /** Games: the search, the status filter, and the page after this cursor. */
  gameQuery?: string;
  gameStatus?: GameStatus;
  games?: string;
  /** Users: the search. */
  user?: string;
  /** Scores: the chosen game, and the page after this cursor. */
  game?: string;
  scores?: string;
  /** Audit log: the older page after this cursor. */
  audit?: string;
  /** Payouts: the older page after this cursor. */
  payouts?: string;
  /** Books: the period, and whether "Check the books" was pressed. */
  booksFrom?: string;
  booksTo?: string;
  books?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface AdminPageProps {
  viewer: Viewer;
  state: AdminPageState;
  review: Page<ReviewView>;
  games: Page<AdminGameView>;
  /** Null until something was searched. */
  users: AdminUserView[] | null;
  /** The games to choose from in "Scores" (newest first). */
  gameChoices: { gameId: string; title: string }[];
  /** Null until a game is chosen; `unknown` for a game id that is no game. */
  scores: Page<AdminScoreView> | 'unknown' | null;
  audit: Page<AuditEntry>;
  /** Every developer's payouts, newest first. */
  payouts: Page<PayoutRow>;
  /** Books: the reconciliation asked for (null until "Check the books"). */
  books: BooksSectionProps['result'];
  /** A fresh idempotency key for each form that needs one (credit, void): a double submit applies once. */
  newKey: () => string;
}

/** `/admin` with `state` changed by `change` (empty values dropped), at `section`. */
export function adminHref(state: AdminPageState, change: Partial<AdminPageState>, section: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...state, ...change })) if (value) query.set(name, value);
  const search = query.toString();
  return `/admin${search ? `?${search}` : ''}#${section}`;
}

const SECTIONS = [
  { id: 'review', name: 'Review' },
  { id: 'games', name: 'Games' },
  { id: 'users', name: 'Users' },
  { id: 'scores', name: 'Scores' },
  { id: 'audit-log', name: 'Audit log' },
  { id: 'payouts', name: 'Payouts' },
  { id: 'books', name: 'Books' },
] as const;

function Section(props: { id: string; name: string; children: ComponentChildren }) {
  return (
    <section id={props.id} class="admin-section" aria-labelledby={`${props.id}-heading`} tabindex={-1}>
      <h2 id={`${props.id}-heading`}>{props.name}</h2>
      {props.children}
    </section>
  );
}

/** Free text in a table: a hyphenated word stays whole (§17.2: no word broken), the text wraps between words. */
function Words(props: { text: string }) {
  return <>{props.text.split(/(\s+)/).map((part) => (part.includes('-') ? <span class="nowrap">{part}</span> : part))}</>;
}

function NextPage(props: { href: string | null; children?: string }) {
  return props.href ? (
    <p class="pager">
      <a href={props.href}>{props.children ?? 'Next page'}</a>
    </p>
  ) : null;
}

/** A button in a row that opens a dialog in that row (kept in a template until then), with Cancel. */
function RowDialog(props: { id: string; opener: string; variant?: 'secondary' | 'danger'; children: ComponentChildren }) {
  return (
    <>
      <button type="button" class={`button small ${props.variant ?? 'secondary'}`} data-edit={props.id}>
        {props.opener}
      </button>
      <template id={props.id}>
        <dialog aria-labelledby={`${props.id}-heading`}>
          {props.children}
        </dialog>
      </template>
    </>
  );
}

function Cancel() {
  return (
    <button type="button" class="button secondary" data-close="">
      Cancel
    </button>
  );
}

function ReviewSection(props: AdminPageProps) {
  const { items, nextCursor } = props.review;
  return (
    <Section id="review" name="Review">
      <div id="review-region" data-region="">
        <DataTable
          caption="Pending versions"
          columns={['Game', 'Version', 'Entry URL', 'Submitted', 'Decision']}
          rows={items}
          empty="No version waits for review."
          row={(version) => (
            <tr data-version-id={version.versionId}>
              <Cell label="Game">
                <div class="stack">
                  <Words text={version.gameTitle} />
                  <span class="mono">
                    <LongText text={version.gameSlug} />
                  </span>
                </div>
              </Cell>
              <Cell label="Version">
                <div class="stack">
                  <span class="nowrap">{version.label}</span>
                  <span class="mono id">
                    <LongText text={version.versionId} short />
                  </span>
                </div>
              </Cell>
              <Cell label="Entry URL">
                <span class="mono">
                  <LongText text={version.entryUrl} />
                </span>
              </Cell>
              <Cell label="Submitted">
                <When at={version.createdAt} />
              </Cell>
              <Cell label="Decision">
                <div class="actions">
                  {/* §17.1: the host page plays this version as a preview (a test-mode play session) for an admin. */}
                  <a class="button small secondary" href={`/play/${encodeURIComponent(version.gameSlug)}?version=${encodeURIComponent(version.versionId)}`}>
                    Preview
                  </a>
                  <ApiForm method="POST" action={`/api/admin/versions/${encodeURIComponent(version.versionId)}/approve`} after="refresh" flash={`Approved ${version.gameTitle} ${version.label}: its developer can publish it now.`} class="row-action">
                    <Submit>Approve</Submit>
                  </ApiForm>
                  <ApiForm method="POST" action={`/api/admin/versions/${encodeURIComponent(version.versionId)}/reject`} after="refresh" flash={`Rejected ${version.gameTitle} ${version.label}: its developer sees the reason.`} class="row-action reject">
                    <TextField id={`reject-reason-${version.versionId}`} label="Reason" name="reason" optional hint="Optional, shown to the developer (at most 200 characters)." />
                    <Submit variant="danger">Reject</Submit>
                  </ApiForm>
                </div>
              </Cell>
            </tr>
          )}
        />
        <NextPage href={nextCursor ? adminHref(props.state, { review: nextCursor }, 'review') : null} />
      </div>
    </Section>
  );
}

export const GAME_STATUSES: readonly GameStatus[] = ['unpublished', 'published', 'suspended'];

function GamesSection(props: AdminPageProps) {
  const { items, nextCursor } = props.games;
  const { state } = props;
  return (
    <Section id="games" name="Games">
      <form method="get" action="/admin#games" class="search" data-live-search="" data-cursor="games">
        <div class="field">
          <label for="game-query">Search games</label>
          <input id="game-query" type="search" name="gameQuery" value={state.gameQuery ?? ''} autocomplete="off" aria-describedby="game-query-hint" />
          <small id="game-query-hint" class="hint">
            A part of the slug or the title.
          </small>
        </div>
        <Select
          id="game-status"
          label="Status"
          name="gameStatus"
          value={state.gameStatus ?? ''}
          options={[{ value: '', label: 'Any status' }, ...GAME_STATUSES.map((status) => ({ value: status, label: status }))]}
        />
      </form>
      <div id="games-region" data-region="">
        <DataTable
          caption={state.gameQuery || state.gameStatus ? 'Games found' : 'All games, newest first'}
          columns={['Title', 'Slug', 'Developer', 'Status', 'Created', 'Action']}
          rows={items}
          empty="No game matches."
          row={(game) => (
            <tr data-game-id={game.gameId}>
              <Cell label="Title">
                <div class="stack">
                  <Words text={game.title} />
                  <span class="mono id">
                    <LongText text={game.gameId} short />
                  </span>
                </div>
              </Cell>
              <Cell label="Slug">
                <span class="mono">
                  <LongText text={game.slug} />
                </span>
              </Cell>
              <Cell label="Developer">
                <Words text={game.developerName} />
              </Cell>
              <Cell label="Status" class={`status-${game.status}`}>
                {game.status}
              </Cell>
              <Cell label="Created">
                <When at={game.createdAt} />
              </Cell>
              <Cell label="Action">
                {game.status === 'suspended' ? (
                  <ApiForm method="POST" action={`/api/admin/games/${encodeURIComponent(game.gameId)}/unsuspend`} after="refresh" flash={`Unsuspended ${game.title}: it is unpublished until its developer publishes it again.`} class="row-action">
                    <Submit variant="secondary">Unsuspend</Submit>
                  </ApiForm>
                ) : (
                  <ConfirmDialog
                    id={`suspend-${game.gameId}`}
                    opener="Suspend"
                    title={`Suspend “${game.title}”?`}
                    confirm="Confirm suspension"
                    reason="optional"
                    request={{ method: 'POST', action: `/api/admin/games/${encodeURIComponent(game.gameId)}/suspend`, after: 'refresh', flash: `Suspended ${game.title}: nobody but admins can play it now.` }}
                  >
                    <p>It leaves the catalogue at once and nobody but admins can play it, rounds under way included; its developer cannot publish it.</p>
                    <p>Unsuspending returns it unpublished, for its developer to publish again.</p>
                  </ConfirmDialog>
                )}
              </Cell>
            </tr>
          )}
        />
        <NextPage href={nextCursor ? adminHref(state, { games: nextCursor }, 'games') : null} />
      </div>
    </Section>
  );
}

function UserActions(props: { user: AdminUserView; viewer: Viewer; newKey: () => string }) {
  const { user } = props;
  const id = encodeURIComponent(user.id);
  const who = user.email;
  const name = user.displayName;
  return (
    <div class="actions">
      {user.emailVerified ? null : (
        <ApiForm method="POST" action={`/api/admin/users/${id}/verify-email`} after="refresh" flash={`Verified the e-mail address of ${name}.`} class="row-action">
          <Submit variant="secondary">Verify e-mail</Submit>
        </ApiForm>
      )}
      {user.linked ? (
        <RowDialog id={`credit-${user.id}`} opener="Credit coins">
          <ApiForm method="POST" action={`/api/admin/wallets/${id}/credits`} labelledBy={`credit-${user.id}-heading`} after="refresh" flash={`Credited {coins} to ${name}.`}>
            <h3 id={`credit-${user.id}-heading`}>{`Credit coins to ${who}`}</h3>
            <NumberField id={`credit-coins-${user.id}`} label="Coins" name="coins" min={1} max={100000} required hint="1 to 100,000." />
            <TextField id={`credit-reason-${user.id}`} label="Reason" name="reason" required hint="Kept on the ledger entry and in the audit log (at most 200 characters)." />
            <Hidden name="idempotencyKey" value={props.newKey()} />
            <div class="actions">
              <Submit>Credit</Submit>
              <Cancel />
            </div>
          </ApiForm>
        </RowDialog>
      ) : null}
      {user.bannedAt ? (
        <ApiForm method="POST" action={`/api/admin/users/${id}/unban`} after="refresh" flash={`Unbanned ${name}: they can sign in again.`} class="row-action">
          <Submit variant="secondary">Unban</Submit>
        </ApiForm>
      ) : (
        <ConfirmDialog
          id={`ban-${user.id}`}
          opener="Ban"
          title={`Ban ${name}?`}
          confirm="Confirm ban"
          reason="required"
          request={{ method: 'POST', action: `/api/admin/users/${id}/ban`, after: 'refresh', flash: `Banned ${name}: they are signed out everywhere.` }}
        >
          <p class="mono">{who}</p>
          <p>Every session of this user ends at once; they cannot sign in and their API keys stop working until you unban them. Their games stay as they are.</p>
        </ConfirmDialog>
      )}
      {user.linked ? (
        user.walletFrozenAt ? (
          <ApiForm method="POST" action={`/api/admin/wallets/${id}/unfreeze`} after="refresh" flash={`Unfroze the wallet of ${name}: they can buy coins and play again.`} class="row-action">
            <Submit variant="secondary">Unfreeze wallet</Submit>
          </ApiForm>
        ) : (
          <ConfirmDialog
            id={`freeze-${user.id}`}
            opener="Freeze wallet"
            openerVariant="secondary"
            title={`Freeze the wallet of ${name}?`}
            confirm="Confirm freeze"
            reason="optional"
            request={{ method: 'POST', action: `/api/admin/wallets/${id}/freeze`, after: 'refresh', flash: `Froze the wallet of ${name}: they cannot insert or buy coins until you unfreeze it.` }}
          >
            <p class="mono">{who}</p>
            <p>They cannot insert coins or buy coins until you unfreeze it. Their balance, scores and play sessions stay as they are.</p>
          </ConfirmDialog>
        )
      ) : null}
    </div>
  );
}

function UsersSection(props: AdminPageProps) {
  const { users, state } = props;
  return (
    <Section id="users" name="Users">
      <form method="get" action="/admin#users" class="search" data-live-search="">
        <div class="field">
          <label for="user-query">Find a user</label>
          <input id="user-query" type="search" name="user" value={state.user ?? ''} autocomplete="off" maxlength={100} aria-describedby="user-query-hint" />
          <small id="user-query-hint" class="hint">
            The start of an e-mail address, or a part of a display name.
          </small>
        </div>
      </form>
      <div id="users-region" data-region="">
        {users === null ? (
          <p class="hint">Search to see users (the first 50 matches).</p>
        ) : (
          <DataTable
            caption="Users found"
            columns={['User', 'Roles', 'E-mail', { label: 'Balance (coins)', num: true }, 'Account', 'Wallet', 'Actions']}
            rows={users}
            empty="No user matches."
            row={(user) => (
              <tr data-user-id={user.id}>
                <Cell label="User">
                  <div class="stack">
                    <Words text={user.id === props.viewer.accountId ? `${user.displayName} (you)` : user.displayName} />
                    <span class="mono email">
                      <LongText text={user.email} />
                    </span>
                    <span class="mono id">
                      <LongText text={user.id} short />
                    </span>
                  </div>
                </Cell>
                <Cell label="Roles">{user.roles.length ? user.roles.join(', ') : '—'}</Cell>
                <Cell label="E-mail">{user.emailVerified ? 'verified' : 'unverified'}</Cell>
                <Cell label="Balance (coins)" class="num">
                  {user.balance === null ? 'not linked' : wholeNumberText(user.balance)}
                </Cell>
                <Cell label="Account">
                  {user.bannedAt ? (
                    <span class="status-suspended">
                      banned since <When at={user.bannedAt} />
                    </span>
                  ) : (
                    'active'
                  )}
                </Cell>
                <Cell label="Wallet">
                  {user.walletFrozenAt ? (
                    <span class="status-suspended">
                      frozen since <When at={user.walletFrozenAt} />
                    </span>
                  ) : user.linked ? (
                    'open'
                  ) : (
                    '—'
                  )}
                </Cell>
                <Cell label="Actions">
                  <UserActions user={user} viewer={props.viewer} newKey={props.newKey} />
                </Cell>
              </tr>
            )}
          />
        )}
      </div>
    </Section>
  );
}

function ScoreRows(props: { scores: AdminScoreView[] }) {
  return (
    <>
      {props.scores.map((score) => (
        <tr data-score-id={score.scoreId}>
          <Cell label="Score" class="num">
            {wholeNumberText(score.score)}
          </Cell>
          <Cell label="Initials" class="initials-cell">
            {score.initials ?? '—'}
          </Cell>
          <Cell label="Source">{score.source}</Cell>
          <Cell label="Player">
            <span class="mono">
              <LongText text={score.playerId} short />
            </span>
          </Cell>
          <Cell label="Achieved">
            <When at={score.achievedAt} />
          </Cell>
          <Cell label="Boards">
            {score.removedAt ? (
              <span class="status-suspended">
                removed <When at={score.removedAt} />
              </span>
            ) : (
              <ConfirmDialog
                id={`remove-${score.scoreId}`}
                opener="Remove score"
                title={`Remove the score ${wholeNumberText(score.score)}?`}
                confirm="Confirm removal"
                reason="required"
                request={{ method: 'POST', action: `/api/admin/scores/${encodeURIComponent(score.scoreId)}/remove`, after: 'refresh', flash: `The score ${wholeNumberText(score.score)} is off the boards.` }}
              >
                <p>It leaves every board at once and the next best take its place; its insertion stays paid. To give the coins back, void the insertion instead.</p>
              </ConfirmDialog>
            )}
          </Cell>
        </tr>
      ))}
    </>
  );
}

function ScoresSection(props: AdminPageProps) {
  const { state, scores } = props;
  return (
    <Section id="scores" name="Scores">
      <form method="get" action="/admin#scores" class="search" data-live-search="" data-cursor="scores">
        <Select
          id="score-game"
          label="Game"
          name="game"
          value={state.game ?? ''}
          hint="Its saved scores, best first, removed ones included."
          options={[{ value: '', label: 'Choose a game' }, ...props.gameChoices.map((game) => ({ value: game.gameId, label: game.title }))]}
        />
      </form>
      <div id="scores-region" data-region="">
        {scores === null ? (
          <p class="hint">Choose a game to see its scores.</p>
        ) : scores === 'unknown' ? (
          <p class="notice" data-tone="error">
            There is no such game.
          </p>
        ) : (
          <>
            <table class="data">
              <caption>Saved scores</caption>
              <thead>
                <tr>
                  <th scope="col" class="num">Score</th>
                  <th scope="col">Initials</th>
                  <th scope="col">Source</th>
                  <th scope="col">Player</th>
                  <th scope="col">Achieved</th>
                  <th scope="col">Boards</th>
                </tr>
              </thead>
              <tbody>
                {scores.items.length === 0 ? (
                  <tr>
                    <td colspan={6}>No score saved yet.</td>
                  </tr>
                ) : (
                  <ScoreRows scores={scores.items} />
                )}
              </tbody>
            </table>
            <NextPage href={scores.nextCursor ? adminHref(state, { scores: scores.nextCursor }, 'scores') : null} />
          </>
        )}
      </div>
      <div class="panel narrow">
        <ApiForm method="POST" action="/api/admin/insertions/{insertionId}/void" labelledBy="void-heading" after="refresh" flash="Insertion voided: the coins are back in the player's wallet." confirm="void-confirm">
          <h3 id="void-heading">Void an insertion</h3>
          <p class="hint">Gives the player's coins back, takes the insertion out of the developer's earnings and its score off the boards.</p>
          <TextField id="void-insertion" label="Insertion id" name="insertionId" path required />
          <TextField id="void-reason" label="Reason" name="reason" required hint="For the audit log (at most 200 characters)." />
          <Hidden name="idempotencyKey" value={props.newKey()} />
          <Submit variant="danger">Void</Submit>
          {/* After "Void", so Enter in a field presses "Void" (the form's first submit button), which asks. */}
          <ConfirmDialog id="void-confirm" title="Void this insertion?" confirm="Confirm void">
            <p>
              Insertion <Echo name="insertionId" />: its coins go back to the player's wallet, it no longer counts in the developer's earnings, and
              its score leaves every board.
            </p>
            <p>A void cannot be undone.</p>
          </ConfirmDialog>
        </ApiForm>
      </div>
    </Section>
  );
}

function AuditSection(props: AdminPageProps) {
  const { items, nextCursor } = props.audit;
  return (
    <Section id="audit-log" name="Audit log">
      <div id="audit-region" data-region="">
        <table class="data">
          {/* Its section's heading above says the same words (docs/pages.md): the caption names the table for assistive technology only. */}
          <caption class="visually-hidden">Audit log</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr>
                <td colspan={5}>Nothing recorded yet.</td>
              </tr>
            ) : (
              items.map((entry) => (
                <tr>
                  <Cell label="When">
                    <When at={entry.at} />
                  </Cell>
                  <Cell label="Actor">
                    <LongText text={entry.actorEmail ?? 'Erased account'} />
                  </Cell>
                  {/* The labels a narrow screen shows beside these values stay in the page's font: only the values are code. */}
                  <Cell label="Action">
                    <span class="mono">{entry.action}</span>
                  </Cell>
                  <Cell label="Target">
                    <span class="mono">
                      {`${entry.targetType} `}
                      <LongText text={entry.targetId} short />
                    </span>
                  </Cell>
                  <Cell label="Reason">{entry.reason ? <Words text={entry.reason} /> : '—'}</Cell>
                </tr>
              ))
            )}
          </tbody>
        </table>
        <NextPage href={nextCursor ? adminHref(props.state, { audit: nextCursor }, 'audit-log') : null}>Older</NextPage>
      </div>
    </Section>
  );
}

/** CONTRACT §22: "Run payouts" (asks first), and every payout with "Mark paid" and "Mark failed" while it is pending. */
function PayoutsSection(props: AdminPageProps) {
  const { items, nextCursor } = props.payouts;
  return (
    <Section id="payouts" name="Payouts">
      <div id="payouts-region" data-region="">
        {/* In the region: after a run, it comes back with a fresh idempotency key. */}
        <div class="actions">
          <ConfirmDialog
            id="run-payouts"
            opener="Run payouts"
            openerVariant="secondary"
            title="Run payouts now?"
            confirm="Confirm payout run"
            request={{ method: 'POST', action: '/api/admin/payout-runs', after: 'refresh', flash: 'Payout run done: every developer due a payout has one below.' }}
          >
            <p>
              Every developer with a payout method and at least the minimum available is paid all of it now: Stripe payouts are transferred at
              once, sandbox payouts wait for you to mark them paid or failed.
            </p>
            <Hidden name="idempotencyKey" value={props.newKey()} />
          </ConfirmDialog>
        </div>
        <DataTable
          caption="Payouts"
          columns={['Developer', { label: 'Amount', num: true }, 'Status', 'Created', 'Actions']}
          rows={items}
          empty="No payouts yet."
          row={(payout) => {
                const id = encodeURIComponent(payout.id);
                const amount = moneyText(millsToUsd(payout.amountMills));
                return (
                  <tr data-payout-id={payout.id}>
                    <Cell label="Developer">
                      <div class="stack">
                        <Words text={payout.developerName} />
                        <span class="mono id">
                          <LongText text={payout.id} short />
                        </span>
                      </div>
                    </Cell>
                    <Cell label="Amount" class="num">
                      <Money usd={millsToUsd(payout.amountMills)} />
                    </Cell>
                    <Cell label="Status" class={`status-${payout.status}`}>
                      {payout.status === 'paid' ? (
                        <>
                          {`paid (${payout.methodKind}) `}
                          {payout.reference ? <LongText text={payout.reference} /> : null}
                        </>
                      ) : payout.status === 'failed' ? (
                        <Words text={`failed: ${payout.failureReason ?? ''}`} />
                      ) : (
                        `pending (${payout.methodKind})`
                      )}
                    </Cell>
                    <Cell label="Created">
                      <When at={payout.createdAt} />
                    </Cell>
                    <Cell label="Actions">
                      {payout.status === 'pending' ? (
                        <div class="actions">
                          <RowDialog id={`mark-paid-${payout.id}`} opener="Mark paid">
                            <ApiForm method="POST" action={`/api/admin/payouts/${id}/mark-paid`} labelledBy={`mark-paid-${payout.id}-heading`} after="refresh" flash={`Marked the payout of ${amount} to ${payout.developerName} paid.`}>
                              <h3 id={`mark-paid-${payout.id}-heading`}>{`Mark the payout of ${amount} to ${payout.developerName} paid`}</h3>
                              <TextField id={`mark-paid-reference-${payout.id}`} label="Reference" name="reference" required hint="The payment's reference, such as the bank transfer's (at most 200 characters)." />
                              <div class="actions">
                                <Submit>Confirm</Submit>
                                <Cancel />
                              </div>
                            </ApiForm>
                          </RowDialog>
                          <ConfirmDialog
                            id={`mark-failed-${payout.id}`}
                            opener="Mark failed"
                            title={`Mark the payout of ${amount} to ${payout.developerName} failed?`}
                            confirm="Confirm"
                            reason="required"
                            request={{ method: 'POST', action: `/api/admin/payouts/${id}/fail`, after: 'refresh', flash: `Marked the payout of ${amount} to ${payout.developerName} failed: the amount is back in their balance.` }}
                          >
                            <p>The amount goes back to the developer's balance and the next payout run pays it again. A failed payout cannot be marked paid later.</p>
                          </ConfirmDialog>
                        </div>
                      ) : (
                        '—'
                      )}
                    </Cell>
                  </tr>
                );
              }}
        />
        <NextPage href={nextCursor ? adminHref(props.state, { payouts: nextCursor }, 'payouts') : null}>Older</NextPage>
      </div>
    </Section>
  );
}

export function AdminPage(props: AdminPageProps) {
  return (
    <Layout title="Admin" viewer={props.viewer} page="admin" section="admin">
      <h1>Admin</h1>
      <nav aria-label="Admin sections" class="subnav">
        <ul>
          {SECTIONS.map((section) => (
            <li>
              <a href={`#${section.id}`}>{section.name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <ReviewSection {...props} />
      <GamesSection {...props} />
      <UsersSection {...props} />
      <ScoresSection {...props} />
      <AuditSection {...props} />
      <PayoutsSection {...props} />
      <BooksSection state={{ from: props.state.booksFrom, to: props.state.booksTo }} result={props.books} />
    </Layout>
  );
}
