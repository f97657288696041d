import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { OfflineStatus } from './device';
import { OfflineBanner } from './OfflineBanner';

const status = (over: Partial<OfflineStatus> = {}): OfflineStatus => ({
  online: true,
  waiting: 0,
  sending: false,
  refused: [],
  lastSent: [],
  ...over,
});

const refused = {
  seq: 2,
  lessonId: 'L',
  nodeId: 'n2',
  pageId: null,
  fromPageId: 'p1',
  fromNodeId: 'n1',
  answers: [1],
  title: 'Fractions',
  queuedAt: '',
  code: 'INVALID_INPUTS' as const,
  refusedAt: '',
};

describe('OfflineBanner', () => {
  it('says nothing when online with nothing waiting', () => {
    const { container } = render(<OfflineBanner status={status()} onDismissRefused={() => undefined} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('offline: a status says so and counts the answers waiting on the device', () => {
    render(
      <OfflineBanner status={status({ online: false, waiting: 3 })} onDismissRefused={() => undefined} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Offline: 3 answers wait on this device; they will be sent and graded when the connection returns.',
    );
  });

  it('offline with nothing waiting, then back online while sending', () => {
    const { rerender } = render(
      <OfflineBanner status={status({ online: false })} onDismissRefused={() => undefined} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Offline: you can go on with the pages kept on this device.',
    );
    rerender(
      <OfflineBanner status={status({ sending: true, waiting: 1 })} onDismissRefused={() => undefined} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Back online: sending 1 answer…');
  });

  it('explains each refused answer in an alert, which the learner dismisses', async () => {
    const dismiss = vi.fn();
    render(<OfflineBanner status={status({ refused: [refused] })} onDismissRefused={dismiss} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The server refused 1 answer given offline:');
    expect(alert).toHaveTextContent('“Fractions”:');
    await userEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(dismiss).toHaveBeenCalledOnce();
  });
});
