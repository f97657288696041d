import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { withTenant } from '../../../test/fixtures';
import { DataProtectionPage, MentionsPage } from './LegalPage';

describe('legal pages', () => {
  it('shows the terms sanitised, with version and date and a way home', () => {
    withTenant({
      legal: {
        cgu: {
          content:
            '<h2>Article 1</h2><p onclick="steal()">Hello<script>alert(1)</script></p><img src=x onerror="steal()"><a href="javascript:steal()">bad</a><a href="https://example.org" target="_blank">ok</a>',
          version: '2.1',
          date: '2025-03-04',
        },
        rgpd: null,
      },
    });
    const { container } = render(
      <MemoryRouter>
        <MentionsPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Legal notice' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Article 1' })).toBeInTheDocument();
    expect(screen.getByText(/Version 2\.1 of/)).toHaveTextContent('Mar 4, 2025');
    const html = container.querySelector('.legal__content')!.innerHTML;
    expect(html).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(screen.getByRole('link', { name: 'ok' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  it('says so when the context has no text', () => {
    withTenant();
    render(
      <MemoryRouter>
        <DataProtectionPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Data protection' })).toBeInTheDocument();
    expect(screen.getByText('This text is not available yet.')).toBeInTheDocument();
  });
});
