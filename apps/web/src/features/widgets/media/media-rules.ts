/** Pure rules of the media widgets (docs/product.md §4, §9), kept apart from the components to test them by table. */
import { SOUND_VOLUMES } from '@parcours/domain/constants';

export { formatFileSize, truncateFileName } from '@parcours/domain/files';

/** docs/product.md §9: a seek closer than this to the current position is ignored (the range input jitters). */
export const SEEK_THRESHOLD_SECONDS = 0.5;

/** docs/product.md §4: the volume button cycles 0.125 → 0.45 → 1 → 0.125; an unknown volume starts the cycle. */
export function nextVolume(current: number): number {
  const index = SOUND_VOLUMES.findIndex((v) => Math.abs(v - current) < 1e-9);
  return SOUND_VOLUMES[(index + 1) % SOUND_VOLUMES.length]!;
}

/** Whether moving from `current` to `target` seconds is a real seek (docs/product.md §9 threshold 0.5 s). */
export function shouldSeek(current: number, target: number): boolean {
  if (!Number.isFinite(target) || target < 0) return false;
  return Math.abs(target - current) >= SEEK_THRESHOLD_SECONDS;
}

/** "m:ss" (or "h:mm:ss") for a position in a sound. */
export function formatTrackTime(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** What kind of player a stored file needs, from its file type or MIME type (docs/product.md §3 supported files). */
export type MediaKind = 'image' | 'audio' | 'video' | 'pdf' | 'other';

export function mediaKindOf(file: {
  fileType?: string | null;
  type?: string | null;
  mimeType?: string | null;
}): MediaKind {
  const mime = file.mimeType ?? file.type ?? '';
  if (file.fileType === 'image' || mime.startsWith('image/')) return 'image';
  if (file.fileType === 'audio' || mime.startsWith('audio/')) return 'audio';
  if (file.fileType === 'video' || mime.startsWith('video/')) return 'video';
  if (file.fileType === 'pdf' || mime === 'application/pdf') return 'pdf';
  return 'other';
}

/**
 * The element of the server's `htmlPlayer` (files/{id}/infos, docs/product.md §3): which player the file
 * gets. The web app draws its own accessible player of that kind rather than inject the markup;
 * no `htmlPlayer` (or anything else in it) means the file is not played, only offered.
 */
export function htmlPlayerKind(htmlPlayer: string | null | undefined): 'audio' | 'video' | null {
  const tag = /^\s*<(audio|video)[\s>]/i.exec(htmlPlayer ?? '')?.[1]?.toLowerCase();
  return tag === 'audio' || tag === 'video' ? tag : null;
}
