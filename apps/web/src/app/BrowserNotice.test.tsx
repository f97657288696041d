import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BrowserNotice } from './BrowserNotice';

const OLD_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; rv:45.0) Gecko/20100101 Firefox/45.0';
const NEW_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

describe('browser-incompatibility notice', () => {
  it('recommends two browsers on an unsupported one, and remembers dismissal', async () => {
    const { unmount } = render(<BrowserNotice userAgent={OLD_FIREFOX} />);
    const notice = screen.getByRole('region', { name: 'Your browser is not supported' });
    expect(notice).toHaveTextContent('Google Chrome');
    expect(notice).toHaveTextContent('Mozilla Firefox');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    unmount();
    render(<BrowserNotice userAgent={OLD_FIREFOX} />);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('stays hidden on supported browsers', () => {
    render(<BrowserNotice userAgent={NEW_CHROME} />);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });
});
