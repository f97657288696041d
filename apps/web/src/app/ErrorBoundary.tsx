import { Component, type ErrorInfo, type ReactNode } from 'react';
import { loadErrorKind } from '../features/new-version/load-errors';
import { reloadToNewVersion, screenSaysNewVersion } from '../features/new-version/new-version';
import { t } from '../lib/i18n';

interface Props {
  children: ReactNode;
}
interface State {
  failed: boolean;
  /** A script or style chunk could not be loaded (docs/product.md §8): most often a newer version is live. */
  chunk: boolean;
}

/**
 * Catches a screen that fails to load or render and offers a reload instead of a blank page.
 * A chunk that cannot be fetched (a deployment removed the old build, or the network) says a
 * new version is available; any other failure keeps the generic message.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, chunk: false };
  private undoSaying: (() => void) | null = null;

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, chunk: loadErrorKind(error) !== null };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Screen failed', loadErrorKind(error) ?? '', error, info.componentStack);
    // The shell's banner would repeat this screen's message word for word.
    if (loadErrorKind(error) && !this.undoSaying) this.undoSaying = screenSaysNewVersion();
  }

  override componentWillUnmount(): void {
    this.undoSaying?.();
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const chunk = this.state.chunk;
    return (
      <div className="page page--narrow centered" role="alert">
        <h1>{chunk ? t('newVersion.message') : t('errors.screen.title')}</h1>
        <p>{chunk ? t('newVersion.explain') : t('errors.screen.message')}</p>
        <button
          type="button"
          className="btn btn--primary"
          onClick={chunk ? reloadToNewVersion : () => window.location.reload()}
        >
          {chunk ? t('newVersion.reload') : t('errors.screen.button')}
        </button>
      </div>
    );
  }
}
