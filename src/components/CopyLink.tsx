/**
 * CopyLink — a value shown once or often copied (a payment link's address, an invite link, a new
 * token or secret) as selectable text and, once scripts run, a "Copy …" button that puts it on the
 * clipboard and says so (a polite live region). Without scripts the text alone is there to select.
 */
import { Component, h } from 'preact';

export interface CopyLinkProps {
  url: string;
  /** The button's words ("Copy link" unless given, e.g. "Copy token"). */
  label?: string;
  /** What the status says once copied ("Link copied." unless given). */
  copied?: string;
  /** The class of the value's text: `link-url` (the default) or `secret`. */
  kind?: 'link-url' | 'secret';
  /** A test id for the value's text. */
  testId?: string;
  /** Shows the value in blocks of this many characters (a TOTP key), each kept whole on a line; the copy is the value itself. */
  groupBy?: number;
}

interface State {
  ready: boolean;
  said: string;
}

export default class CopyLink extends Component<CopyLinkProps, State> {
  state: State = { ready: false, said: '' };

  componentDidMount() {
    this.setState({ ready: typeof navigator !== 'undefined' && !!navigator.clipboard });
  }

  private copy = async () => {
    try {
      await navigator.clipboard.writeText(this.props.url);
      this.setState({ said: this.props.copied ?? 'Link copied.' });
    } catch {
      this.setState({ said: 'Copying was not allowed: select the text and copy it.' });
    }
  };

  // h() rather than JSX, as LinkPreview.tsx says why.
  render() {
    const { url, label = 'Copy link', kind = 'link-url', testId, groupBy } = this.props;
    const groups = groupBy ? (url.match(new RegExp(`.{1,${groupBy}}`, 'g')) ?? []) : undefined;
    const { ready, said } = this.state;
    return h(
      'div',
      { class: 'copy-link' },
      groups
        ? h(
            'code',
            { class: `${kind} grouped`, 'data-testid': testId },
            groups.flatMap((group, i) => [i > 0 ? ' ' : '', h('span', { class: 'group' }, group)]),
          )
        : h('code', { class: kind, 'data-testid': testId }, url),
      ready ? h('button', { type: 'button', class: 'secondary', onClick: this.copy }, label) : null,
      // A polite live region (not role="status"): the page's own status message stays the one status on it.
      h('span', { 'aria-live': 'polite', class: 'copy-status' }, said),
    );
  }
}
