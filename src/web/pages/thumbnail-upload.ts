/**
 * "Upload thumbnail" on a developer's game page (CONTRACT §17.2): the chosen file goes to
 * `PUT /api/portal/games/{gameId}/thumbnail` as the request body with its own media type (no
 * form encoding); the API's `message` lands in the form's role="alert", and on success the
 * current image changes in place and the page's status line says so.
 */
import { showFlash } from './api-forms';

/** As the API counts it (2 MB); a bigger file is refused here without sending it. */
const MAX_BYTES = 2 * 1024 * 1024;

async function put(path: string, file: File): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const response = await fetch(path, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
    const body: unknown = await response.json().catch(() => ({}));
    return { status: response.status, body: body && typeof body === 'object' ? (body as Record<string, unknown>) : {} };
  } catch {
    return { status: 0, body: {} };
  }
}

/** The current image: the one there, or a new one where the "no thumbnail yet" text was. */
function showImage(doc: Document, form: HTMLFormElement, url: string): void {
  let image = form.querySelector<HTMLImageElement>('img[data-thumbnail]');
  if (!image) {
    image = Object.assign(doc.createElement('img'), { alt: 'Thumbnail', width: 640, height: 360 });
    image.dataset.thumbnail = '';
    image.className = 'thumbnail-current';
    form.querySelector('[data-thumbnail-none]')?.replaceWith(image);
  }
  image.src = url;
}

export function startThumbnailUpload(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>('form[data-thumbnail-upload]');
  if (!form) return;
  const input = form.querySelector<HTMLInputElement>('input[type="file"]')!;
  const alert = form.querySelector<HTMLElement>('[data-form-error]')!;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      if (form.getAttribute('aria-busy') === 'true') return;
      alert.textContent = '';
      const file = input.files?.[0];
      if (!file) {
        alert.textContent = 'Thumbnail: choose a PNG, JPEG or WebP image first.';
        return;
      }
      if (file.size > MAX_BYTES) {
        alert.textContent = 'Thumbnail: the image is larger than 2 MB (2,097,152 bytes).';
        return;
      }
      form.setAttribute('aria-busy', 'true');
      const answer = await put(form.dataset.thumbnailUpload!, file);
      form.removeAttribute('aria-busy');
      if (answer.status === 200 && typeof answer.body.thumbnailUrl === 'string') {
        showImage(doc, form, answer.body.thumbnailUrl);
        input.value = '';
        showFlash(doc, 'Thumbnail uploaded.');
        return;
      }
      alert.textContent =
        typeof answer.body.message === 'string' && answer.body.message
          ? answer.body.message
          : answer.status === 0
            ? 'The arcade cannot be reached. Check your connection and try again.'
            : `That did not work (HTTP ${answer.status}). Please try again.`;
    })();
  });
}
