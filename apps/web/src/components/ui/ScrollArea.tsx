import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import './scroll-area.css';

/**
 * A wide thing (a table) that may not fit a phone: it scrolls sideways inside its own box, and
 * when it does not fit, a visible hint says so and the box can take the keyboard focus (arrow
 * keys scroll it), named for screen readers. On a wide screen nothing shows.
 */
export function ScrollArea({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div className={`scroll-area${overflows ? ' scroll-area--overflows' : ''}`}>
      {overflows ? (
        <p className="scroll-area__hint" aria-hidden="true">
          {t('common.scrollHint')} <span className="scroll-area__arrow">→</span>
        </p>
      ) : null}
      <div
        ref={box}
        className="scroll-area__box"
        {...(overflows
          ? { role: 'region', 'aria-label': `${label} — ${t('common.scrollHint')}`, tabIndex: 0 }
          : {})}
      >
        {children}
      </div>
    </div>
  );
}
