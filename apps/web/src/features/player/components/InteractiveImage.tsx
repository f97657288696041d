import type { InteractiveImageSpot, InteractiveImageView } from '@parcours/domain/entities';
import type { KeyboardEvent } from 'react';
import { useState } from 'react';
import { GlossaryText } from '../../../components/ui/glossary/GlossaryText';
import type { GlossaryTerm } from '../../../components/ui/glossary/highlight-terms';
import { useTranslation } from '../../../lib/i18n';
import { fileUrl } from '../../exercises/shared/file-url';

/** docs/product.md §9: pictures with zones are drawn in a viewBox 808 wide. */
const VIEWBOX_WIDTH = 808;

function SpotShape({ spot }: { spot: InteractiveImageSpot }) {
  if (spot.shape === 'circle') return <circle className="zone__shape" cx={spot.cx} cy={spot.cy} r={spot.r} />;
  if (spot.shape === 'polygon') return <polygon className="zone__shape" points={spot.points} />;
  return <rect className="zone__shape" x={spot.x} y={spot.y} width={spot.width} height={spot.height} />;
}

interface InteractiveImageProps {
  image: InteractiveImageView;
  idPrefix: string;
  terms?: readonly GlossaryTerm[];
}

/**
 * A block's interactive image (docs/product.md §3, decision 0052): the picture with its spots
 * drawn over it, each a button named by its label (Tab to it, Enter or Space to choose); the
 * chosen spot's text shows under the picture, in a region screen readers hear when it changes.
 * Nothing is graded: it is content to explore, like the block's table.
 */
export function InteractiveImage({ image, idPrefix, terms = [] }: InteractiveImageProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<number | null>(null);
  const [, , width = VIEWBOX_WIDTH, height = VIEWBOX_WIDTH / 2] = image.viewBox.split(/\s+/).map(Number);
  const src = fileUrl(image.appFile);
  const spot = chosen === null ? undefined : image.spots[chosen];
  const panelId = `${idPrefix}-spot`;
  const onKeyDown = (index: number) => (event: KeyboardEvent) => {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      setChosen(index);
    }
  };

  return (
    <figure className="interactive-image">
      <p id={`${idPrefix}-help`} className="image-cliquable__help">
        {t('player.interactiveImage.help')}
      </p>
      <svg
        className="image-cliquable__svg"
        viewBox={image.viewBox}
        role="group"
        aria-label={image.alt}
        aria-describedby={`${idPrefix}-help`}
      >
        {src ? (
          <image href={src} x={0} y={0} width={width} height={height} preserveAspectRatio="xMidYMid meet" />
        ) : null}
        {image.spots.map((s, index) => (
          <g
            key={index}
            role="button"
            aria-pressed={chosen === index}
            aria-controls={panelId}
            aria-label={s.label}
            tabIndex={0}
            className={`zone${chosen === index ? ' is-picked' : ''}`}
            onClick={() => setChosen(index)}
            onKeyDown={onKeyDown(index)}
          >
            <SpotShape spot={s} />
          </g>
        ))}
      </svg>
      <figcaption id={panelId} className="interactive-image__panel" aria-live="polite">
        {spot ? (
          <>
            <strong className="interactive-image__label">{spot.label}</strong>
            <GlossaryText className="rich-text" html={spot.html} terms={terms} />
          </>
        ) : (
          <span className="interactive-image__idle">
            {t('player.interactiveImage.idle', { count: image.spots.length })}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
