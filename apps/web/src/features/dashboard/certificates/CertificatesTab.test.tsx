import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../lib/i18n';
import { setSessionUser } from '../../../lib/session';
import { mockApi, type MockHandler } from '../../../test/api-mock';
import { me, withTenant } from '../../../test/fixtures';
import type { CertificationItemAttributes } from './api/get-certification-items';
import { CertificatesTab } from './CertificatesTab';

function item(id: string, extra: Partial<CertificationItemAttributes> = {}) {
  const attributes: CertificationItemAttributes = {
    lessonId: id,
    course: { id: `c-${id}`, title: `Cours ${id}`, reference: null },
    class: { id: 'cl-1', name: 'Classe A' },
    classProgram: { id: 'cp-1', startAt: '2026-01-05T08:00:00.000Z', expireAt: '2026-06-30T18:00:00.000Z' },
    scoreRatio: 0.85,
    score: 850,
    passingScore: 0.5,
    percentProgression: 100,
    ended: true,
    endedAt: '2026-03-04T10:00:00.000Z',
    certificationRef: `REF-${id}`,
    wording: 'certification',
    certificateUrl: `/api/lessons/${id}/certificate.pdf`,
    credentialUrl: `/api/lessons/${id}/credential`,
    ...extra,
  };
  return { type: 'certification-items', id, attributes };
}

const doc = (items: ReturnType<typeof item>[]) => ({ data: items, meta: { total: items.length } });

function renderTab(handlers: Record<string, MockHandler>) {
  const fetchMock = mockApi(handlers);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CertificatesTab />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('the certificates tab', () => {
  beforeEach(async () => {
    await changeLanguage('fr');
    setSessionUser(me('public', 'u-1'), 'token-1');
    withTenant({ certification: { allowed: true, type: 'certification' } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    ['certification', "Aucune certification pour l'instant."],
    ['attestation', "Aucune attestation pour l'instant."],
  ] as const)('says there is no %s yet, in the tenant wording', async (type, text) => {
    withTenant({ certification: { allowed: true, type } });
    renderTab({ 'GET certification-items': { body: doc([]) } });
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('shows the SPEC table: caption, column headers, dates, score out of 1000, coloured progress, links only when allowed', async () => {
    renderTab({
      'GET certification-items': {
        body: doc([
          item('a'),
          item('b', {
            ended: false,
            percentProgression: 40,
            score: 300,
            certificateUrl: null,
            credentialUrl: null,
          }),
          item('c', {
            percentProgression: 75,
            score: 200,
            certificateUrl: null,
            credentialUrl: null,
            wording: 'attestation',
          }),
        ]),
      },
    });
    const table = await screen.findByRole('table', { name: 'Vos certifications' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Type de document',
      'Ouverture',
      'Fermeture',
      'Cours et score',
      'Classe et progression',
      'Certificat',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('rowheader')).toHaveTextContent('Cours aScore : 850 / 1000');
    expect(within(rows[0]!).getByText('5 janv. 2026')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('30 juin 2026')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Progression : 100 %')).toHaveClass('certificates__progress--success');
    expect(within(rows[0]!).getByRole('button', { name: 'Certificat (PDF) : Cours a' })).toBeInTheDocument();
    expect(
      within(rows[0]!).getByRole('button', { name: 'Badge numérique (Open Badges) : Cours a' }),
    ).toBeInTheDocument();
    expect(
      within(rows[0]!).getByRole('button', { name: 'Badge pour un portefeuille (JSON-LD) : Cours a' }),
    ).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Progression : 40 %')).toHaveClass('certificates__progress--danger');
    expect(within(rows[1]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('En cours')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Progression : 75 %')).toHaveClass('certificates__progress--primary');
    expect(within(rows[2]!).getByText('Non délivré(e)')).toBeInTheDocument();
    // The table scrolls sideways in a focusable region named by the caption.
    expect(screen.getByRole('region', { name: 'Vos certifications' })).toHaveAttribute('tabindex', '0');
  });

  // Issue 39 item 3: the file a wallet imports (embedded proof), beside the JWT.
  it.each([
    ['Badge numérique (Open Badges) : Cours a', 'text/plain', 'REF-a.jwt'],
    ['Badge pour un portefeuille (JSON-LD) : Cours a', 'application/vc+ld+json', 'REF-a.json'],
  ])('downloads the credential as %s asks: Accept %s, file %s', async (name, accept, file) => {
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:cred');
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    const fetchMock = renderTab({
      'GET certification-items': { body: doc([item('a')]) },
      'POST lessons/a/certificate': { status: 201, body: { id: 'x', verificationUrl: 'http://x' } },
      'lessons/a/credential': { body: '{}' },
    });
    await userEvent.setup().click(await screen.findByRole('button', { name }));
    await waitFor(() => expect(clicked).toEqual([file]));
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('credential'));
    expect((call?.[1]?.headers as Record<string, string>).Accept).toBe(accept);
    expect((call?.[1]?.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
    click.mockRestore();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  it('downloads the PDF with the token in a header, never in the URL', async () => {
    // jsdom has no object URLs: lend them for this test.
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:cert');
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(`${this.href} ${this.download}`);
    });
    const fetchMock = renderTab({
      'GET certification-items': { body: doc([item('a')]) },
      'POST lessons/a/certificate': { status: 201, body: { id: 'x', verificationUrl: 'http://x' } },
      'lessons/a/certificate.pdf': { body: '%PDF-' },
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Certificat (PDF) : Cours a' }));
    await waitFor(() => expect(clicked).toEqual(['blob:cert REF-a.pdf']));
    // The award first (decision 0065), then the document, which only reads.
    const paths = fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`);
    expect(paths.filter((p) => p.includes('lessons/a/'))).toEqual([
      'POST /api/lessons/a/certificate',
      'GET /api/lessons/a/certificate.pdf',
    ]);
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('certificate.pdf'));
    expect(String(call?.[0])).toBe('/api/lessons/a/certificate.pdf');
    expect((call?.[1]?.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
    expect((call?.[1]?.headers as Record<string, string>).Accept).toBe('application/pdf');
    click.mockRestore();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });
});
