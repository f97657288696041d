import { formatFileSize, truncateFileName } from '@parcours/domain/files';
import { Suspense, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { Icon } from '../../../components/ui/Icon';
import { RichText } from '../../../components/ui/RichText';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import type { PageResource, ResourceFile } from '../api/get-page-resources';
import { usePlayerSlots, type SlotFile } from '../player-slots';
import './resources.css';

interface ListedFile extends SlotFile {
  size?: number;
}

/** Files a resource block shows in its rows (media-internal), with the URL the API gave. */
function blockFiles(resource: PageResource): ListedFile[] {
  const sections = resource.block?.content.sections ?? [];
  const files: ListedFile[] = [];
  for (const section of sections) {
    for (const row of section.rows) {
      const file = row.appFile as
        | { id?: unknown; name?: unknown; url?: unknown; type?: unknown; fileType?: unknown }
        | null
        | undefined;
      if (
        row.type !== 'media-internal' ||
        !file ||
        typeof file.id !== 'string' ||
        typeof file.url !== 'string'
      )
        continue;
      files.push({
        id: file.id,
        name: typeof file.name === 'string' ? file.name : '',
        url: file.url,
        mimeType: typeof file.type === 'string' ? file.type : undefined,
        fileType: typeof file.fileType === 'string' ? file.fileType : undefined,
      });
    }
  }
  return files;
}

/** The texts of a resource block's wysiwyg rows, read in the modal under its statement. */
function blockTexts(resource: PageResource): { title: string | null; html: string }[] {
  return (resource.block?.content.sections ?? []).flatMap((section) =>
    section.rows.flatMap((row) =>
      row.type === 'wysiwyg' && typeof row.html === 'string' && row.html
        ? [{ title: typeof row.title === 'string' && row.title ? row.title : null, html: row.html }]
        : [],
    ),
  );
}

function FileItem({
  file,
  number,
  onOpen,
  open,
}: {
  file: ListedFile;
  number: number;
  onOpen: () => void;
  open: boolean;
}) {
  const { t, i18n } = useTranslation();
  const name = file.name || t('player.resources.document', { number });
  return (
    <li className="resources__file">
      <button
        type="button"
        className="btn btn--ghost resources__open"
        aria-expanded={open}
        onClick={onOpen}
        title={name}
      >
        <Icon name="document" /> {truncateFileName(name)}
      </button>
      {file.size !== undefined ? (
        <span className="resources__size">
          {formatFileSize(file.size, i18n.language, t('widgets.media.sizeUnits').split(','))}
        </span>
      ) : null}
      <a className="resources__download" href={file.url} download={file.name}>
        {t('player.resources.download')} <span className="sr-only">{truncateFileName(name)}</span>
      </a>
    </li>
  );
}

/**
 * docs/product.md §2 toolbar resources list: a button with the count opening the resource modal, which
 * lists the resource blocks under the page's node and the files of node and block. A file opens
 * in its widget (the player's FileViewer slot): PDF viewer, sound player, video dialog.
 */
export function ResourcesButton({
  resources,
  files,
}: {
  resources: readonly PageResource[];
  files: readonly ResourceFile[];
}) {
  const { t } = useTranslation();
  const { FileViewer } = usePlayerSlots();
  const [open, setOpen] = useState(false);
  const [viewed, setViewed] = useState<ListedFile | null>(null);
  const count = resources.length + files.length;
  if (count === 0) return null;
  const close = () => {
    setViewed(null);
    setOpen(false);
  };
  const toggle = (file: ListedFile) => setViewed((current) => (current?.id === file.id ? null : file));
  const item = (file: ListedFile, number: number) => (
    <FileItem
      key={file.id}
      file={file}
      number={number}
      open={viewed?.id === file.id}
      onOpen={() => toggle(file)}
    />
  );
  const pageFiles: ListedFile[] = files.map((f) => ({
    id: f.id,
    name: f.name,
    url: f.download,
    mimeType: f.mimeType,
    fileType: f.fileType,
    size: f.size,
  }));

  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <Icon name="paperclip" /> {t('player.resources.button', { count })}
      </Button>
      <Dialog
        isOpen={open}
        title={t('player.resources.title')}
        onDismiss={close}
        className="resources-dialog"
        actions={
          <Button data-autofocus onClick={close}>
            {t('player.dialogs.close')}
          </Button>
        }
      >
        <ul className="resources">
          {resources.map((resource, i) => {
            const own = blockFiles(resource);
            return (
              <li key={resource.node?.id ?? resource.block?.id ?? i} className="resources__item">
                <h3 className="resources__title">{resource.block?.title ?? resource.node?.title ?? ''}</h3>
                {resource.block?.content.statement?.html ? (
                  <RichText html={resource.block.content.statement.html} />
                ) : null}
                {blockTexts(resource).map((text, j) => (
                  <div key={j} className="resources__text">
                    {text.title ? <h4 className="resources__subtitle">{text.title}</h4> : null}
                    <RichText html={text.html} />
                  </div>
                ))}
                {own.length ? (
                  <ul className="resources__files">{own.map((f, j) => item(f, j + 1))}</ul>
                ) : null}
              </li>
            );
          })}
          {pageFiles.length ? (
            <li className="resources__item">
              <ul className="resources__files">{pageFiles.map((f, i) => item(f, i + 1))}</ul>
            </li>
          ) : null}
        </ul>
        {viewed && FileViewer ? (
          <div className="resources__viewer">
            <Suspense fallback={<Spinner label={t('common.loading')} />}>
              <FileViewer key={viewed.id} file={viewed} onClose={() => setViewed(null)} />
            </Suspense>
          </div>
        ) : null}
      </Dialog>
    </>
  );
}
