import type { BlockView } from '@parcours/domain/entities';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlayerSlotsContext, type SlotFile } from '../player-slots';
import { ResourcesButton } from './Resources';

function FileViewer({ file }: { file: SlotFile; onClose: () => void }) {
  return (
    <p>
      viewing {file.name} from {file.url}
    </p>
  );
}

const longName = `${'Procédure '.repeat(7)}.pdf`;

describe('toolbar resources (SPEC §2, §9)', () => {
  it('shows its count, lists files with 56-character names and sizes, and opens one in its widget', async () => {
    const user = userEvent.setup();
    const block = {
      id: 'b1',
      title: 'Fiche réflexe',
      content: {
        statement: { html: '<p>À relire</p>' },
        sections: [
          {
            rows: [
              {
                type: 'media-internal',
                appFile: { id: 'f3', name: 'plan.pdf', url: '/signed/plan', type: 'application/pdf' },
              },
              { type: 'wysiwyg', title: 'Le point de rassemblement', html: '<p>Restez-y.</p>' },
            ],
          },
        ],
      },
    } as unknown as BlockView;
    render(
      <PlayerSlotsContext value={{ rows: {}, FileViewer }}>
        <ResourcesButton
          resources={[{ block, node: null }]}
          files={[
            {
              id: 'f1',
              name: longName,
              download: '/signed/f1',
              mimeType: 'application/pdf',
              fileType: 'pdf',
              size: 1536,
            },
            {
              id: 'f2',
              name: 'rappel.mp3',
              download: '/signed/f2',
              mimeType: 'audio/mpeg',
              fileType: 'audio',
              size: 3 * 1024 * 1024,
            },
          ]}
        />
      </PlayerSlotsContext>,
    );
    await user.click(screen.getByRole('button', { name: 'Resources (3)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resources' });
    expect(dialog).toHaveTextContent('Fiche réflexe');
    // The resource block's text rows are read in the modal, under its statement.
    expect(screen.getByRole('heading', { level: 4, name: 'Le point de rassemblement' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Restez-y.');
    const truncated = `${longName.slice(0, 55)}…`;
    expect(screen.getByRole('button', { name: truncated })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('1.5 KB');
    expect(dialog).toHaveTextContent('3 MB');
    expect(screen.getByRole('link', { name: 'Download rappel.mp3' })).toHaveAttribute('href', '/signed/f2');
    await user.click(screen.getByRole('button', { name: 'rappel.mp3' }));
    expect(screen.getByText('viewing rappel.mp3 from /signed/f2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'rappel.mp3' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'plan.pdf' }));
    expect(screen.getByText('viewing plan.pdf from /signed/plan')).toBeInTheDocument();
  });

  it('is absent when the page has no resources', () => {
    render(<ResourcesButton resources={[]} files={[]} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
