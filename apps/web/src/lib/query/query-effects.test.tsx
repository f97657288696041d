import { render, screen } from '@testing-library/react';
import { options } from 'preact';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { QueryClient, QueryClientProvider, useQuery } from '.';

// In the browser Preact runs effects after the next frame; the test setup runs them in a
// microtask (src/test/setup.ts). Here they wait for a timer, as after a frame, so a gcTime of 0
// can fire between the render that builds an entry and the effect that watches it.
const inTests = options.requestAnimationFrame;
beforeEach(() => {
  options.requestAnimationFrame = (flush) => void setTimeout(flush, 20);
});
afterEach(() => {
  options.requestAnimationFrame = inTests;
});

it('asks once for an entry with gcTime 0 when effects run a frame after the render (the player page)', async () => {
  let calls = 0;
  function Page() {
    const page = useQuery({
      queryKey: ['page', 'l1'],
      queryFn: async () => {
        calls += 1;
        return `page ${calls}`;
      },
      staleTime: Infinity,
      gcTime: 0,
    });
    return <p>{page.data ?? 'loading'}</p>;
  }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Page />
    </QueryClientProvider>,
  );
  await screen.findByText('page 1');
  // Several frames later: no other request (it looped, one request per frame, on a forgotten entry).
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(calls).toBe(1);
  expect(screen.getByText('page 1')).toBeInTheDocument();
});
