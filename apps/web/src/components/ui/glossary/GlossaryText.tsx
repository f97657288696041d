import { useEffect, useMemo, useRef, useState } from 'react';
import { Dialog, Popover } from 'react-aria-components';
import { useTranslation } from '../../../lib/i18n';
import { RichText, sanitizeHtml } from '../RichText';
import { highlightTerms, type GlossaryTerm } from './highlight-terms';

interface GlossaryTextProps {
  id?: string;
  html: string;
  terms: readonly GlossaryTerm[];
  className?: string;
}

/**
 * Sanitised course HTML with its glossary terms as buttons; a term opens its definition in a
 * popover (Escape or a click outside closes it, focus returns to the term). The statement and
 * the content rows of a block share it, so a term reads the same wherever it appears.
 */
export function GlossaryText({ id, html, terms, className }: GlossaryTextProps) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLElement | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const content = useMemo(
    () => highlightTerms(sanitizeHtml(html), terms, (word) => t('player.glossary.term', { word })),
    [html, terms, t],
  );

  // The terms are inside course HTML, so their clicks are caught here rather than by React.
  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const onClick = (event: MouseEvent) => {
      const button = (event.target as Element | null)?.closest<HTMLElement>('.glossary-term');
      if (!button) return;
      trigger.current = button;
      button.setAttribute('aria-expanded', 'true');
      setOpen(Number(button.dataset.term));
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, []);

  const term = open === null ? null : terms[open];
  const close = () => {
    trigger.current?.setAttribute('aria-expanded', 'false');
    setOpen(null);
  };

  return (
    <>
      <div id={id} ref={container} className={className} dangerouslySetInnerHTML={{ __html: content }} />
      {term ? (
        <Popover
          triggerRef={trigger}
          isOpen
          onOpenChange={(isOpen) => {
            if (!isOpen) close();
          }}
          placement="bottom"
          className="glossary-popover"
        >
          <Dialog aria-label={term.title} className="glossary-popover__dialog">
            <p className="glossary-popover__title">{term.title}</p>
            <RichText html={term.definition} />
          </Dialog>
        </Popover>
      ) : null}
    </>
  );
}
