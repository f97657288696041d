import { lazy, Suspense, useEffect } from 'react';
import { afterFirstScreen } from '../../lib/after-first-screen';
import type { DialogFrame as Frame, DialogProps } from './DialogFrame';

export type { DialogProps, DialogTone } from './DialogFrame';

/**
 * Decision 0021: React Aria's modal, focus scope and overlay code (~25 kB, and the longest task
 * of a phone's first load) is not needed until a dialog opens, so it is its own chunk. Screens
 * render `<Dialog isOpen={false}>` ahead of time: that asks for the chunk once the first screen is
 * painted and the page is idle, so an opening (offline too) does not wait for the network.
 */
let loading: Promise<{ DialogFrame: typeof Frame }> | null = null;
const load = () => (loading ??= import('./DialogFrame'));

const DialogFrame = lazy(() => load().then((module) => ({ default: module.DialogFrame })));

/**
 * Asked once the first screen is painted and the browser is idle (issue 11): on a slow phone it
 * would otherwise share the network with that screen (decision 0030).
 */
function prefetchAfterFirstScreen(): void {
  void afterFirstScreen()
    .then(load)
    .catch(() => undefined);
}

export function Dialog(props: DialogProps) {
  useEffect(prefetchAfterFirstScreen, []);
  if (!props.isOpen) return null;
  return (
    <Suspense fallback={null}>
      <DialogFrame {...props} />
    </Suspense>
  );
}
