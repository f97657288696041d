import { lazy } from 'react';
import { useParams } from 'react-router';
import { rowRegistry } from '../../features/exercises/registry';
import { PlayerPage } from '../../features/player/components/PlayerPage';
import { PlayerSlotsContext, type PlayerSlots } from '../../features/player/player-slots';
import { widgetRows } from '../../features/widgets/registry';

// Content HTML is cleaned before it renders: this screen's loader waits for the cleaner (decision 0033).
export { sanitizerReady } from '../../lib/sanitize-html';

/**
 * The player's rows and tools, composed here because features do not import each other
 * (docs/architecture.md §2): exercise and content rows, widget rows, the calculator (its own chunk).
 * The correction and node screens use the same.
 */
export const playerSlots: PlayerSlots = {
  rows: { ...rowRegistry, ...widgetRows },
  Calculator: lazy(() =>
    import('../../features/widgets/calculator/Calculator').then((m) => ({ default: m.Calculator })),
  ),
  // Media widgets: loaded with the first resource opened or the first row with its own sound.
  FileViewer: lazy(() =>
    import('../../features/widgets/media/FileViewer').then((m) => ({ default: m.FileViewer })),
  ),
  RowAudio: lazy(() =>
    import('../../features/widgets/sound/RowAudio').then((m) => ({ default: m.RowAudio })),
  ),
  // An unknown lesson id says so (issue 12), not "cannot find the next page".
  LessonNotFound: lazy(() =>
    import('../../features/errors/components/NotFoundPage').then((m) => ({
      default: () => <m.NotFoundPage what="lesson" />,
    })),
  ),
  // Loaded when a learner first asks for documents by e-mail.
  DocumentsDialog: lazy(() =>
    import('../../features/contact/components/DocumentationDialog').then((m) => ({
      default: m.DocumentationDialog,
    })),
  ),
};

/** docs/product.md §2 /session/{id} and /session/{id}/page/{pageId}: the lesson player. */
export function PlayerScreen() {
  const { id = '', pageId = null } = useParams();
  return (
    <PlayerSlotsContext value={playerSlots}>
      <PlayerPage key={`${id}:${pageId ?? ''}`} lessonId={id} pageId={pageId} />
    </PlayerSlotsContext>
  );
}
