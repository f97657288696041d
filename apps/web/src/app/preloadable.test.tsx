import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { preloadable } from './preloadable';

// Decision 0030: a component whose code is in renders at once, without the Suspense fallback.
describe('preloadable', () => {
  const Hello = ({ name }: { name: string }) => <p>Hello {name}</p>;

  it('suspends while its code is not in, then renders', async () => {
    let arrive: () => void = () => undefined;
    const { Component } = preloadable(
      () => new Promise<typeof Hello>((resolve) => (arrive = () => resolve(Hello))),
    );
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Component name="Ada" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    arrive();
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
  });

  it('renders its first render whole once loaded: no fallback, one import', async () => {
    const importer = vi.fn(() => Promise.resolve(Hello));
    const { Component, load } = preloadable(importer);
    await Promise.all([load(), load()]);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Component name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Grace')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).toBeNull();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failed import', async () => {
    const importer = vi
      .fn<() => Promise<typeof Hello>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(Hello);
    const { load } = preloadable(importer);
    await expect(load()).rejects.toThrow('offline');
    await expect(load()).resolves.toBe(Hello);
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
