import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useSanitizedHtml } from '../../../lib/sanitize-html';
import { highlightTerms, type GlossaryTerm } from './highlight-terms';

const loadPopover = () => import('./GlossaryPopover');
// Not on the first paint's path (issue 11): the popover's code comes after the page is shown.
const GlossaryPopover = lazy(() => loadPopover().then((module) => ({ default: module.GlossaryPopover })));

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
  const clean = useSanitizedHtml(html);
  const content = useMemo(
    () => highlightTerms(clean, terms, (word) => t('player.glossary.term', { word })),
    [clean, terms, t],
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

  // Asked for once the text is on screen, so a term's first click rarely waits for the network.
  const hasTerms = terms.length > 0;
  useEffect(() => {
    if (hasTerms) void loadPopover().catch(() => undefined);
  }, [hasTerms]);

  const term = open === null ? null : terms[open];
  const close = () => {
    trigger.current?.setAttribute('aria-expanded', 'false');
    setOpen(null);
  };

  return (
    <>
      <div id={id} ref={container} className={className} dangerouslySetInnerHTML={{ __html: content }} />
      {term ? (
        <Suspense fallback={null}>
          <GlossaryPopover term={term} triggerRef={trigger} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
