import type { PublicRowView } from '@parcours/domain/entities';
import { htmlToText, RichText } from '../../../components/ui/RichText';
import { fileUrl } from './file-url';

type Choice = NonNullable<PublicRowView['choices']>[number];

/**
 * A choice's text and, when it has one, its picture: decorative when the text names the choice,
 * named by the file otherwise.
 */
export function ChoiceLabel({ choice }: { choice: Choice }) {
  const src = fileUrl(choice.appFile);
  const alt = htmlToText(choice.value)
    ? ''
    : String((choice.appFile as { name?: unknown } | null | undefined)?.name ?? '');
  return (
    <span className="choice-label">
      {src ? <img className="choice-label__image" src={src} alt={alt} loading="lazy" /> : null}
      <RichText inline html={choice.value ?? ''} className="choice-label__text" />
    </span>
  );
}
