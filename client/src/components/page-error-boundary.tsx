import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * A page whose code could not load (a new release replaced it while the tab was
 * open, or the network dropped) shows a way out instead of a blank screen.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page-error" role="alert">
        <h1>This page could not be loaded</h1>
        <p>Please check your connection and try again.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
