/**
 * CopyLink — a payment link's address as selectable text and, once scripts run, a "Copy link"
 * button that puts it on the clipboard and says so (role="status").
 */
import { Component, h } from 'preact';

export interface CopyLinkProps {
  url: string;
  /** The button's words and what it says when done (a secret: "Copy token" / "Token copied."). */
  label?: string;
  copied?: string;
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
    const { url } = this.props;
    const { ready, said } = this.state;
    return h(
      'div',
      { class: 'copy-link' },
      h('code', { class: 'link-url' }, url),
      ready ? h('button', { type: 'button', class: 'secondary', onClick: this.copy }, this.props.label ?? 'Copy link') : null,
      h('span', { role: 'status', class: 'copy-status' }, said),
    );
  }
}
