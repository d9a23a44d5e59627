/**
 * LinkPreview — the link editor's live preview (console, src/components/LinkEditor.astro).
 *
 * Without JavaScript the editor's "Update preview" button posts the form (formaction
 * /console/links/preview, formtarget = the frame) and the frame shows the draft payment page.
 * With it, this island does the same ~250 ms after the merchant stops typing or changes a
 * control (a chosen logo file too), before anything is saved. Each update loads into a fresh
 * frame that replaces the old one once drawn: a frame's first page replaces its blank one
 * instead of adding a history entry, so Back still leaves the editor rather than stepping
 * through previews. The frame is sandboxed without scripts or forms (it cannot take a payment)
 * but same-origin, so its stylesheet loads and its height can follow its content.
 */
import { Component, h } from 'preact';

export interface LinkPreviewProps {
  /** The editor form's id. */
  formId: string;
  /** The id of the form's "Update preview" button (formaction and formtarget set). */
  buttonId: string;
  /** The frame's name, the button's formtarget. */
  frameName: string;
  title: string;
}

export const PREVIEW_DEBOUNCE_MS = 250;

// A class component: preact/hooks would add 1.2 KB gzip for one timer and one ref.
export default class LinkPreview extends Component<LinkPreviewProps> {
  private box: HTMLDivElement | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private count = 0;

  componentDidMount() {
    const form = document.getElementById(this.props.formId) as HTMLFormElement | null;
    const button = document.getElementById(this.props.buttonId) as HTMLButtonElement | null;
    if (!form || !button) return;
    const later = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refresh(form, button), PREVIEW_DEBOUNCE_MS);
    };
    form.addEventListener('input', later);
    form.addEventListener('change', later);
    button.addEventListener('click', (event) => {
      event.preventDefault();
      this.refresh(form, button);
    });
    this.refresh(form, button);
  }

  private refresh(form: HTMLFormElement, button: HTMLButtonElement) {
    const box = this.box;
    if (!box) return;
    const frame = document.createElement('iframe');
    frame.name = `${this.props.frameName}-${++this.count}`;
    frame.title = this.props.title;
    frame.setAttribute('sandbox', 'allow-same-origin');
    frame.className = 'preview-frame loading';
    frame.addEventListener('load', () => {
      // A later update may have started meanwhile: only the newest frame stays.
      if (frame.name !== `${this.props.frameName}-${this.count}`) return frame.remove();
      for (const old of Array.from(box.querySelectorAll('iframe'))) if (old !== frame) old.remove();
      const doc = frame.contentDocument;
      if (doc) frame.style.height = `${doc.documentElement.scrollHeight}px`;
      frame.classList.remove('loading');
    });
    box.appendChild(frame);
    button.formTarget = frame.name;
    form.requestSubmit(button);
  }

  // h() rather than JSX: JSX would pull preact's jsx-runtime into a chunk of its own, shared with
  // the checkout's CardForm, and cost the checkout page bytes of its 12 KB budget.
  render() {
    const { frameName, title } = this.props;
    return h(
      'div',
      {
        class: 'preview-box',
        // It scrolls beside the form on wide screens: a keyboard reaches it, a screen reader names it.
        tabIndex: 0,
        role: 'region',
        'aria-label': title,
        ref: (el: HTMLDivElement | null) => {
          this.box = el;
        },
      },
      h('iframe', { name: frameName, title, sandbox: 'allow-same-origin', class: 'preview-frame' }),
    );
  }
}
