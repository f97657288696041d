import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../lib/i18n';

interface Props {
  children: ReactNode;
}
interface State {
  failed: boolean;
}

/**
 * Catches a screen that fails to load or render (typically a chunk that cannot be fetched after
 * a deployment or offline) and offers a reload instead of a blank page.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Screen failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page page--narrow centered" role="alert">
        <h1>{t('errors.screen.title')}</h1>
        <p>{t('errors.screen.message')}</p>
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          {t('errors.screen.button')}
        </button>
      </div>
    );
  }
}
