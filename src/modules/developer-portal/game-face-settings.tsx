/**
 * A game's face on its developer page (CONTRACT §17.2): the "Description" field of "Settings",
 * and the thumbnail with its file field "Thumbnail" and button "Upload thumbnail" (sent by
 * src/web/pages/thumbnail-upload.ts as the image itself, with its own media type).
 */
import type { GameRecord } from './game.repository';
import { thumbnailUrlOf, THUMBNAIL_UPLOAD_TYPES } from './game-thumbnail.rules';

/** The description as typed: plain text, its line breaks kept. Goes inside the "Settings" form (PATCH). */
export function DescriptionField(props: { value: string }) {
  return (
    <div class="field">
      <label for="settings-description">Description</label>
      {/* A textarea's first newline is dropped by the HTML parser: one is added so a typed one survives. */}
      <textarea id="settings-description" name="description" rows={6} maxlength={2000} aria-describedby="settings-description-hint">
        {`\n${props.value}`}
      </textarea>
      <small id="settings-description-hint" class="hint">
        Up to 2,000 characters of plain text; line breaks are kept. Players read it in the catalogue, on the game page and beside the game.
      </small>
    </div>
  );
}

/** The current thumbnail and the upload form. Its heading labels nothing: "Thumbnail" names the file field alone. */
export function ThumbnailSettings(props: { game: GameRecord }) {
  const url = thumbnailUrlOf(props.game);
  const action = `/api/portal/games/${encodeURIComponent(props.game.id)}/thumbnail`;
  return (
    <section class="panel narrow thumbnail-settings">
      <h2>Thumbnail</h2>
      <form class="api-form" method="post" action={action} enctype="multipart/form-data" data-thumbnail-upload={action} novalidate>
        {url ? (
          <img class="thumbnail-current" data-thumbnail="" src={url} alt="Thumbnail" width={640} height={360} />
        ) : (
          <p class="hint" data-thumbnail-none="">
            No thumbnail yet: the catalogue shows a placeholder.
          </p>
        )}
        <div class="field">
          <label for="thumbnail-file">Thumbnail</label>
          <input id="thumbnail-file" type="file" name="thumbnail" accept={THUMBNAIL_UPLOAD_TYPES.join(',')} aria-describedby="thumbnail-file-hint" />
          <small id="thumbnail-file-hint" class="hint">
            PNG, JPEG or WebP, at most 2 MB and at least 320 × 180 pixels; cropped to 640 × 360 to fill.
          </small>
        </div>
        <button type="submit" class="button primary">
          Upload thumbnail
        </button>
        <p class="form-error" role="alert" data-form-error=""></p>
      </form>
    </section>
  );
}
