/**
 * CopyButton — a "Copy …" button for text already shown on the page (recovery codes): once
 * scripts run it puts the text on the clipboard and says so (a polite live region). Without
 * scripts it is not drawn; the text on the page is there to select.
 */
import { Component, h } from 'preact';

export interface CopyButtonProps {
  text: string;
  label: string;
  copied: string;
}

export default class CopyButton extends Component<CopyButtonProps, { ready: boolean; said: string }> {
  state = { ready: false, said: '' };

  componentDidMount() {
    this.setState({ ready: typeof navigator !== 'undefined' && !!navigator.clipboard });
  }

  private copy = async () => {
    try {
      await navigator.clipboard.writeText(this.props.text);
      this.setState({ said: this.props.copied });
    } catch {
      this.setState({ said: 'Copying was not allowed: select the codes and copy them.' });
    }
  };

  // h() rather than JSX, as LinkPreview.tsx says why.
  render() {
    const { ready, said } = this.state;
    if (!ready) return null;
    return h(
      'span',
      { class: 'copy-button' },
      h('button', { type: 'button', class: 'secondary', onClick: this.copy }, this.props.label),
      h('span', { 'aria-live': 'polite', class: 'copy-status' }, said),
    );
  }
}
