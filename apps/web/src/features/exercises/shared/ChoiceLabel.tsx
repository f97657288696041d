import type { PublicRowView } from '@parcours/domain/entities';
import { htmlToText, RichText } from '../../../components/ui/RichText';
import { fileUrl } from './file-url';

type Choice = NonNullable<PublicRowView['choices']>[number];

/**
 * A choice's text and, when it has one, its picture: decorative when the text names the choice,
 * named by the file otherwise. Row settings (docs/product.md §3): with a picture, the text shows only with
 * `showDescriptionIfImage` (hidden, it names the picture instead, so the choice keeps its name
 * for screen readers); `returnToLineAfterImage` puts the text on its own line under the picture
 * rather than beside it.
 */
export function ChoiceLabel({ choice, settings }: { choice: Choice; settings?: Record<string, unknown> }) {
  const src = fileUrl(choice.appFile);
  const text = htmlToText(choice.value);
  const showText = !src || settings?.showDescriptionIfImage === true;
  const alt =
    text && showText
      ? ''
      : text || String((choice.appFile as { name?: unknown } | null | undefined)?.name ?? '');
  const stacked = src && showText && settings?.returnToLineAfterImage === true;
  return (
    <span className={`choice-label${stacked ? ' choice-label--stacked' : ''}`}>
      {src ? <img className="choice-label__image" src={src} alt={alt} loading="lazy" /> : null}
      {showText ? <RichText inline html={choice.value ?? ''} className="choice-label__text" /> : null}
    </span>
  );
}
