/**
 * Row type → renderer (docs/architecture.md §5). Exercise types each have their folder; drag-n-drop,
 * the largest, loads only when a page has one. The `widgets` and `video-external` rows belong to
 * features/widgets and are added where the player is composed (app/screens).
 */
import type { RowType } from '@parcours/domain/entities';
import { lazy } from 'react';
import { CombinedChoice } from './combined-choice/CombinedChoice';
import { MediaInternal } from './content/MediaInternal';
import { MediasByMail } from './content/MediasByMail';
import { MediaTincan } from './content/MediaTincan';
import { Wysiwyg } from './content/Wysiwyg';
import { WysiwygTable } from './content/WysiwygTable';
import { FreeAnswer } from './free-answer/FreeAnswer';
import { ImageCliquable } from './image-cliquable/ImageCliquable';
import { MultipleChoice } from './multiple-choice/MultipleChoice';
import { PackageRow } from './package/PackageRow';
import { PickWords } from './pick-words/PickWords';
import type { RowComponent } from './row-props';
import './exercises.css';

const DragAndDrop = lazy(() => import('./drag-n-drop/DragAndDrop').then((m) => ({ default: m.DragAndDrop })));

export const rowRegistry: Partial<Record<RowType | 'package', RowComponent>> = {
  'multiple-choice': MultipleChoice,
  'combined-choice': CombinedChoice,
  'free-answer': FreeAnswer,
  'drag-n-drop': DragAndDrop,
  'pick-words': PickWords,
  'image-cliquable': ImageCliquable,
  wysiwyg: Wysiwyg,
  'wysiwyg-table': WysiwygTable,
  'media-internal': MediaInternal,
  'media-tincan': MediaTincan,
  'medias-by-mail': MediasByMail,
  // A package block's package (decision 0050), drawn by BlockScreen from `content.package`.
  package: PackageRow,
};
