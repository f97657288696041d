import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rowRegistry } from '../../exercises/registry';
import { PlayerSlotsContext } from '../player-slots';
import { PreviewPage } from './PreviewPage';

const SELF = window.location.origin;

const block = {
  title: 'Combien font trois quarts ?',
  type: 'exercice',
  settings: { hints: [{ message: 'Pensez à 3/4.', cost: 2 }] },
  content: {
    statement: { html: '<p>Choisissez la bonne valeur.</p>' },
    sections: [{ rows: [{ type: 'multiple-choice', choices: [{ value: '0,5' }, { value: '0,75' }] }] }],
  },
  solution: {
    feedbacks: [{ when: 'correct', preset: 'success', message: 'Bravo !' }],
    validators: [{ section: 0, row: 0, type: 'multiple-choice', expected: [1], feedbacks: {} }],
  },
};

function post(data: unknown, origin = SELF) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });
}

function renderPreview() {
  return render(
    <PlayerSlotsContext value={{ rows: rowRegistry }}>
      <PreviewPage />
    </PlayerSlotsContext>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('PreviewPage', () => {
  it('tells the user to wait, and posts mounted to the window that embeds it', () => {
    const parent = { postMessage: vi.fn() };
    vi.spyOn(window, 'parent', 'get').mockReturnValue(parent as unknown as Window);
    renderPreview();
    expect(screen.getAllByText(/patienter 2 secondes|wait 2 seconds/i).length).toBeGreaterThan(0);
    expect(parent.postMessage).toHaveBeenCalledWith('mounted', '*');
  });

  it('names the received and the expected origin when a block comes from elsewhere', () => {
    renderPreview();
    post({ block }, 'https://evil.example');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('https://evil.example');
    expect(alert).toHaveTextContent(SELF);
    expect(screen.queryByRole('heading', { name: block.title })).toBeNull();
  });

  it('reports a malformed payload with where it is wrong, without crashing', () => {
    renderPreview();
    post({ block: { ...block, type: 'video' } });
    expect(screen.getByRole('alert')).toHaveTextContent('block.type');
  });

  it('renders the block, reveals a hint, and grades the author’s answer with the domain graders', async () => {
    const user = userEvent.setup();
    renderPreview();
    post({ block });
    expect(screen.getByRole('heading', { level: 1, name: block.title })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /indice|hint/i }));
    expect(screen.getByText('Pensez à 3/4.')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /0,75/ }));
    await user.click(screen.getByRole('button', { name: /vérifier|check/i }));
    // 10 points for the row, minus the cost-2 hint.
    expect(screen.getByRole('heading', { level: 2, name: /8 \/ 10/ })).toBeInTheDocument();
    expect(screen.getByText('Bravo !')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /recommencer|start again/i }));
    expect(screen.getByRole('checkbox', { name: /0,75/ })).not.toBeChecked();
  });

  it('keeps the block shown when a later message comes from a wrong origin, and shows a new block afresh', () => {
    renderPreview();
    post({ block });
    post({ block: { ...block, title: 'Intrus' } }, 'https://evil.example');
    expect(screen.getByRole('heading', { level: 1, name: block.title })).toBeInTheDocument();
    post({ block: { ...block, title: 'Deuxième bloc' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Deuxième bloc' })).toBeInTheDocument();
  });
});
