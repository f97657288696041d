import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { setToken } from '../../../lib/storage';
import { calledUrls, mockApi } from '../../../test/api-mock';
import { RowAudio } from './RowAudio';

const infos = (over: Record<string, unknown>) => ({
  body: {
    id: 'f1',
    name: 'reminder.mp3',
    type: 'audio/mpeg',
    fileType: 'audio',
    size: 48_274,
    download: '/api/files/f1/download?u=1&exp=2&sig=3',
    htmlPlayer: '<audio controls preload="metadata"><source src="/api/files/f1/download"></audio>',
    ...over,
  },
});

function renderRowAudio(answer: ReturnType<typeof infos>) {
  setToken('token');
  const fetchMock = mockApi({ 'GET files/f1/infos': answer });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RowAudio fileId="f1" autoPlay={false} />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('RowAudio (row setting audioFileId, files/{id}/infos)', () => {
  it('plays a file whose infos give an audio player, from the signed download URL', async () => {
    const fetchMock = renderRowAudio(infos({}));
    expect(await screen.findByRole('button', { name: /^Play reminder\.mp3/ })).toBeInTheDocument();
    expect(document.querySelector('audio')?.getAttribute('src')).toBe(
      '/api/files/f1/download?u=1&exp=2&sig=3',
    );
    expect(calledUrls(fetchMock).map((u) => u.pathname)).toEqual(['/api/files/f1/infos']);
  });

  it('offers a file without an audio player for download instead of playing it', async () => {
    renderRowAudio(infos({ name: 'guide.pdf', type: 'application/pdf', fileType: 'pdf', htmlPlayer: null }));
    const link = await screen.findByRole('link', { name: 'Download guide.pdf' });
    expect(link).toHaveAttribute('href', '/api/files/f1/download?u=1&exp=2&sig=3');
    expect(document.querySelector('audio')).toBeNull();
  });
});
