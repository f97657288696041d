import { lazy, Suspense, useEffect } from 'react';
import type { DialogFrame as Frame, DialogProps } from './DialogFrame';

export type { DialogProps, DialogTone } from './DialogFrame';

/**
 * Decision 0021: React Aria's modal, focus scope and overlay code (~25 kB, and the longest task
 * of a phone's first load) is not needed until a dialog opens, so it is its own chunk. Screens
 * render `<Dialog isOpen={false}>` ahead of time: that asks for the chunk once the page is idle,
 * so an opening (offline too) does not wait for the network.
 */
let loading: Promise<{ DialogFrame: typeof Frame }> | null = null;
const load = () => (loading ??= import('./DialogFrame'));

const DialogFrame = lazy(() => load().then((module) => ({ default: module.DialogFrame })));

function prefetchWhenIdle(): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => void load().catch(() => undefined), { timeout: 3_000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(() => void load().catch(() => undefined), 1_000);
  return () => clearTimeout(id);
}

export function Dialog(props: DialogProps) {
  useEffect(prefetchWhenIdle, []);
  if (!props.isOpen) return null;
  return (
    <Suspense fallback={null}>
      <DialogFrame {...props} />
    </Suspense>
  );
}
