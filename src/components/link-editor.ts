/**
 * The link editor's conveniences (src/components/LinkEditor.astro), on top of a form that works
 * without them: the unsaved state in the Save bar, the address made from the title until the
 * merchant types one, the colour picker and its hex field kept in step, and the expiry shown
 * and typed in the browser's time zone (the server reads it back in that zone and stores UTC).
 */
import { hexColour, slugFromTitle } from '../schemas/slug.ts';

const input = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement | null;

function trackUnsaved(form: HTMLFormElement) {
  const state = document.getElementById('save-state');
  if (!state) return;
  const unsaved = () => {
    state.textContent = state.dataset.unsaved ?? 'Unsaved changes';
    state.classList.add('unsaved');
  };
  form.addEventListener('input', unsaved);
  form.addEventListener('change', unsaved);
}

function slugFollowsTitle(form: HTMLFormElement) {
  const title = input(form, 'title');
  const slug = input(form, 'slug');
  if (!title || !slug) return;
  // Typed by hand (before this script ran too, or kept from a refused try): it stays; emptied: it
  // follows the title again.
  let byHand = slug.value !== '' && (slug.value !== slug.defaultValue || slug.value !== slugFromTitle(title.value));
  // A title typed before this script ran still gives the address.
  if (!byHand) slug.value = slugFromTitle(title.value);
  slug.addEventListener('input', () => {
    byHand = slug.value.trim() !== '';
  });
  title.addEventListener('input', () => {
    if (!byHand) slug.value = slugFromTitle(title.value);
  });
}

function colourInStep(form: HTMLFormElement) {
  const hex = input(form, 'brand_color');
  const picker = document.getElementById('field-brand_color-picker') as HTMLInputElement | null;
  const check = document.getElementById('field-brand_color-check');
  if (!hex || !picker || !check) return;
  picker.hidden = false;
  // The hex field decides (it is what is posted), also when typed into before this script ran.
  const typed = hexColour(hex.value);
  if (typed) picker.value = typed;
  const mark = (ok: boolean) => {
    check.hidden = ok;
    if (ok && !hex.dataset.refused) hex.removeAttribute('aria-invalid');
    else hex.setAttribute('aria-invalid', 'true');
  };
  picker.addEventListener('input', () => {
    hex.value = picker.value;
    delete hex.dataset.refused;
    mark(true);
  });
  hex.addEventListener('input', () => {
    const colour = hexColour(hex.value);
    if (colour) picker.value = colour;
    delete hex.dataset.refused;
    mark(colour !== undefined || hex.value.trim() === '');
  });
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a datetime-local value in this browser's zone (seconds only when not zero). */
function localValue(at: Date): string {
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return at.getSeconds() === 0 ? `${day}T${time}` : `${day}T${time}:${pad(at.getSeconds())}`;
}

function offsetText(at: Date): string {
  const minutes = -at.getTimezoneOffset();
  const sign = minutes < 0 ? '−' : '+';
  return `UTC${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

function expiryInBrowserZone(form: HTMLFormElement) {
  const expiry = input(form, 'expires_at');
  const zoneField = input(form, 'time_zone');
  const zoneName = document.getElementById('expiry-zone');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!expiry || !zoneField || !zone) return;
  if (zoneField.value !== zone) {
    const utc = expiry.dataset.utc ? new Date(expiry.dataset.utc) : undefined;
    if (utc && !Number.isNaN(utc.getTime())) {
      expiry.value = localValue(utc);
      expiry.step = utc.getSeconds() === 0 ? '60' : '1';
    }
    zoneField.value = zone;
  }
  if (zoneName) zoneName.textContent = `${zone} (${offsetText(new Date())})`;
}

/**
 * Each question shows only the inputs of its type (all of them show without JavaScript), and its
 * heading follows its English text, so a closed question still says what it asks.
 */
function questionInputsByType(form: HTMLFormElement) {
  for (const select of Array.from(form.querySelectorAll<HTMLSelectElement>('select[data-question-type]'))) {
    const slot = select.closest('.sale-slot');
    if (!slot) continue;
    const summary = slot.querySelector<HTMLElement>('summary[data-prefix]');
    const label = slot.querySelector<HTMLInputElement>('input[name$=".label.en"]');
    const show = () => {
      for (const part of Array.from(slot.querySelectorAll<HTMLElement>('[data-for-type]'))) part.hidden = part.dataset.forType !== select.value;
      const asks = select.value === '' ? 'not asked' : label?.value.trim() || (select.selectedOptions[0]?.textContent ?? '');
      if (summary) summary.textContent = `${summary.dataset.prefix ?? ''}${asks}`;
    };
    slot.addEventListener('input', show);
    slot.addEventListener('change', show);
    show();
  }
}

export function enhanceLinkEditor(form: HTMLFormElement) {
  form.dataset.enhanced = '';
  expiryInBrowserZone(form);
  trackUnsaved(form);
  slugFollowsTitle(form);
  colourInStep(form);
  questionInputsByType(form);
}
