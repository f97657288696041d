import type { FileStore } from '../../files/store';
import { isSafeKey } from '../../files/store';
import type { Resource } from '../../plugins/jsonapi';
import type { FileRow } from './repository';

export function downloadPath(id: string): string {
  return `/api/files/${encodeURIComponent(id)}/download`;
}

export function toFileResource(row: FileRow): Resource {
  return {
    type: 'files',
    id: row.id,
    attributes: {
      // The MIME type; not `type`, which JSON:API forbids as an attribute name.
      mimeType: row.type,
      fileType: row.fileType,
      name: row.name,
      libraryId: row.libraryId,
      ownerId: row.ownerId,
      icon: row.icon,
      size: row.size,
      download: downloadPath(row.id),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    },
  };
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * docs/product.md §3 "the infos call returns htmlPlayer": a ready-made player for sounds and videos; other
 * files have none. The web app still sanitises it before use.
 */
export function htmlPlayerOf(row: FileRow): string | null {
  const src = escapeAttr(downloadPath(row.id));
  const type = escapeAttr(row.type);
  if (row.fileType === 'audio' || row.type.startsWith('audio/')) {
    return `<audio controls preload="metadata"><source src="${src}" type="${type}"></audio>`;
  }
  if (row.fileType === 'video' || row.type.startsWith('video/')) {
    return `<video controls preload="metadata"><source src="${src}" type="${type}"></video>`;
  }
  return null;
}

/**
 * Removes a stored file's bytes once its row is gone (the orphan sweeper, a learner's erasure),
 * through the store that keeps them: the files folder or the S3 bucket (decision 0036; the
 * folder alone left orphans in the bucket). A path that is not a key of ours is left alone; a
 * file already gone is not an error (S3's DeleteObject answers the same for a missing key).
 */
export async function removeFileBytes(store: FileStore, storagePath: string): Promise<void> {
  if (!isSafeKey(storagePath)) return;
  await store.remove(storagePath);
}
