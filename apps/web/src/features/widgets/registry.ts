/** Rows that are widgets rather than exercises; the player adds them to the exercise registry. */
import type { PublicRowView, RowType } from '@parcours/domain/entities';
import type { FunctionComponent } from 'react';
import { MediaRow } from './media/MediaRow';
import { VideoExternal } from './video/VideoEmbed';
import { WidgetsRow } from './WidgetsRow';

export const widgetRows: Partial<Record<RowType, FunctionComponent<{ row: PublicRowView }>>> = {
  widgets: WidgetsRow,
  'video-external': VideoExternal,
  // Over exercises' plain media-internal: PDFs in the viewer, sounds in the docs/product.md §4 player.
  'media-internal': MediaRow,
};
