import { act, render, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { holdSubmit, keepTypedValues } from '../../../lib/prerendered';
import { mockApi } from '../../../test/api-mock';
import { SignInForm } from './SignInForm';

/**
 * Issue 37: a sign-in submitted in the server's HTML before React took the form over was held by
 * the early script (so the page did not post and reload) and then dropped: the learner pressed
 * Enter and nothing happened. The form sends it once it has taken over, with what was typed.
 */
describe('a sign-in submitted before the app started', () => {
  function serverForm() {
    const root = document.createElement('div');
    root.dataset.prerendered = 'sign-in';
    root.innerHTML =
      '<form><input name="email" value="jane@example.org"><input name="password" value="secret"></form>';
    document.body.append(root);
    keepTypedValues(root);
    return root;
  }

  it('is sent once the form is the app’s, with what was typed', async () => {
    const root = serverForm();
    holdSubmit();
    const fetchMock = mockApi({
      'POST users/login': {
        body: { access_token: 'jwt', token_type: 'Bearer', expires_in: 28800, user_id: 'u-1' },
      },
    });
    const onSignedIn = vi.fn(async () => true);
    render(<SignInForm onSignedIn={onSignedIn} />);
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('jwt', 'u-1'));
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'jane@example.org', password: 'secret' });
    root.remove();
  });

  it('sends nothing when nothing was submitted', async () => {
    const root = serverForm();
    const fetchMock = mockApi({});
    const onSignedIn = vi.fn(async () => true);
    render(<SignInForm onSignedIn={onSignedIn} />);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onSignedIn).not.toHaveBeenCalled();
    root.remove();
  });

  it('keeps what was typed while React hydrated the form, and sends it', async () => {
    const onSignedIn = vi.fn(async () => true);
    const container = document.createElement('div');
    container.dataset.prerendered = 'sign-in';
    container.innerHTML = renderToString(<SignInForm onSignedIn={onSignedIn} />);
    document.body.append(container);
    keepTypedValues(container);
    const field = (name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    field('password').value = 'secret';
    // Typed after the form read its fields, before its handlers were on: nothing tells React.
    function TypedDuringHydration() {
      field('email').value = 'late@example.org';
      return null;
    }
    holdSubmit();
    const fetchMock = mockApi({
      'POST users/login': {
        body: { access_token: 'jwt', token_type: 'Bearer', expires_in: 28800, user_id: 'u-1' },
      },
    });
    const root = await act(async () =>
      hydrateRoot(
        container,
        <>
          <SignInForm onSignedIn={onSignedIn} />
          <TypedDuringHydration />
        </>,
      ),
    );
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('jwt', 'u-1'));
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'late@example.org', password: 'secret' });
    expect(field('email').value).toBe('late@example.org');
    act(() => root.unmount());
    container.remove();
  });
});
