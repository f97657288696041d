import type { RefObject } from 'react';
import { Dialog, Popover } from 'react-aria-components';
import { AriaLocale } from '../AriaLocale';
import { RichText } from '../RichText';
import type { GlossaryTerm } from './highlight-terms';

interface GlossaryPopoverProps {
  term: GlossaryTerm;
  triggerRef: RefObject<HTMLElement | null>;
  onClose: () => void;
}

/**
 * A glossary term's definition (GlossaryText). Its own chunk: React Aria's popover, dialog and
 * focus scope (~30 kB brotli) are only needed once a learner opens a term, not for the page's
 * first paint (issue 11, decision 0024 addendum).
 */
export function GlossaryPopover({ term, triggerRef, onClose }: GlossaryPopoverProps) {
  return (
    <AriaLocale>
      <Popover
        triggerRef={triggerRef}
        isOpen
        onOpenChange={(isOpen) => {
          if (!isOpen) onClose();
        }}
        placement="bottom"
        className="glossary-popover"
      >
        <Dialog aria-label={term.title} className="glossary-popover__dialog">
          <p className="glossary-popover__title">{term.title}</p>
          <RichText html={term.definition} />
        </Dialog>
      </Popover>
    </AriaLocale>
  );
}
