import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../../../lib/i18n';
import { setSessionUser } from '../../../lib/session';
import { mockApi } from '../../../test/api-mock';
import { me } from '../../../test/fixtures';
import { MyData } from './MyData';

describe('my data on the account screen (issue 29, GDPR)', () => {
  beforeEach(async () => {
    await changeLanguage('fr');
    setSessionUser(me(), 'jwt-1');
  });

  it('downloads the data export as a JSON file', async () => {
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const fetchMock = mockApi({
      'GET users/me/data-export': { body: { format: 'parcours-learner-data/1', profile: { id: 'u1' } } },
    });
    render(<MyData />);
    await userEvent.click(screen.getByRole('button', { name: 'Télécharger mes données' }));
    expect(await screen.findByText('Le fichier de vos données a été téléchargé.')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]![0])).toContain('/api/users/me/data-export');
    expect(click).toHaveBeenCalledTimes(1);
    // jsdom's Blob has no text(): read it as a browser of 2018 would.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(created[0]!);
    });
    expect(JSON.parse(text)).toMatchObject({ format: 'parcours-learner-data/1' });
  });

  it('says when the download failed', async () => {
    mockApi({
      'GET users/me/data-export': { status: 500, body: { errors: [{ status: '500', code: 'UNDEFINED' }] } },
    });
    render(<MyData />);
    await userEvent.click(screen.getByRole('button', { name: 'Télécharger mes données' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});
