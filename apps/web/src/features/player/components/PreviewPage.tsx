import { useCallback, useMemo, useRef, useState } from 'react';
import type { BlockView } from '@parcours/domain/entities';
import { gradePage, hintsView } from '@parcours/domain/exercises/grade-page';
import type { PageGrade } from '@parcours/domain/exercises/grade-page';
import { parsePreviewMessage, trustedOrigins } from '@parcours/domain/window-messages';
import type { PreviewBlock, PreviewMessage } from '@parcours/domain/window-messages';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { RichText } from '../../../components/ui/RichText';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { useTenant } from '../../../lib/tenant';
import { rowsOf } from '../player-model';
import { useWindowMessages } from '../use-window-messages';
import { BlockScreen } from './BlockScreen';
import { Hints } from './Hints';
import '../player.css';

type Received = Exclude<PreviewMessage, { kind: 'ignored' }>;

/** The fake draft course of docs/product.md §2: one container node holding one block node. */
export const PREVIEW_COURSE = {
  id: 'preview-course',
  state: 'DRAFT',
  container: 'preview-container',
  node: 'preview-node',
} as const;

function toBlockView(block: PreviewBlock): BlockView {
  return {
    id: block.id,
    title: block.title,
    type: block.type,
    settings: { ...block.settings, hintCount: block.settings.hints.length },
    content: block.content as BlockView['content'],
    terms: block.terms,
  };
}

/**
 * docs/product.md §2 /preview (administrators): waits for a block from the back office, then shows it in
 * the real block screen. The author may answer and check: the same domain graders the server
 * uses grade it here, and nothing is sent to any learner's record.
 */
export function PreviewPage() {
  const { t } = useTranslation();
  const tenant = useTenant();
  const hosts = tenant?.attributes.hosts;
  const trusted = useMemo(() => trustedOrigins(window.location.origin, hosts), [hosts]);
  const [received, setReceived] = useState<(Received & { seq: number }) | null>(null);

  const onMessage = useCallback(
    (event: MessageEvent) => {
      const message = parsePreviewMessage({ origin: event.origin, data: event.data as unknown }, trusted);
      // A later wrong-origin message must not hide a block already shown: the author keeps it.
      if (message.kind === 'ignored') return;
      setReceived((current) =>
        message.kind === 'wrong-origin' && current?.kind === 'block'
          ? current
          : { ...message, seq: (current?.seq ?? 0) + 1 },
      );
    },
    [trusted],
  );
  useWindowMessages(onMessage);

  if (!received) {
    return (
      <div className="page page--narrow centered">
        <Spinner label={t('preview.waiting')} />
        <p>{t('preview.waiting')}</p>
      </div>
    );
  }
  if (received.kind === 'wrong-origin') {
    return (
      <div className="page page--narrow">
        <Alert tone="error" title={t('preview.wrongOrigin.title')}>
          <p>
            {t('preview.wrongOrigin.text', {
              received: received.received,
              expected: received.expected.join(', '),
            })}
          </p>
        </Alert>
      </div>
    );
  }
  if (received.kind === 'malformed') {
    return (
      <div className="page page--narrow">
        <Alert tone="error" title={t('preview.malformed.title')}>
          <p>{t('preview.malformed.text')}</p>
          <ul>
            {received.issues.map((issue) => (
              <li key={issue}>
                <code>{issue}</code>
              </li>
            ))}
          </ul>
        </Alert>
      </div>
    );
  }
  // A new block starts a new preview: fresh answers, hints and grade.
  return <PreviewBlockView key={received.seq} message={received} />;
}

function PreviewBlockView({ message }: { message: Extract<Received, { kind: 'block' }> }) {
  const { t } = useTranslation();
  const block = useMemo(() => toBlockView(message.block), [message.block]);
  const rows = useMemo(() => rowsOf(block), [block]);
  const [answers, setAnswers] = useState<unknown[]>(() => rows.map(() => null));
  const [hintsUsed, setHintsUsed] = useState(0);
  const [grade, setGrade] = useState<PageGrade | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const hints = hintsView(message.block.settings.hints, hintsUsed, message.settings);
  const hasExercises = message.block.solution.validators.length > 0;

  const check = () => {
    try {
      const result = gradePage({
        rows,
        solution: message.block.solution,
        answers,
        hintsUsed,
        hintCosts: message.block.settings.hints.map((h) => h.cost),
        settings: message.settings,
      });
      setGrade(result);
      setError(null);
      setLive(t('preview.score', { actual: result.score.actual, max: result.score.max }));
    } catch {
      // A validator that does not match its row: the block is broken, say so instead of crashing.
      setError(t('preview.gradeError'));
    }
  };
  const reset = () => {
    setAnswers(rows.map(() => null));
    setGrade(null);
    setHintsUsed(0);
    setError(null);
    heading.current?.focus();
  };

  return (
    <div className="player page" data-course-state={PREVIEW_COURSE.state}>
      <p className="preview__banner" role="note">
        {t('preview.banner')}
      </p>
      <BlockScreen
        block={block}
        idPrefix="preview"
        headingRef={heading}
        answers={answers}
        onAnswer={(index, value) => setAnswers((prev) => prev.map((a, i) => (i === index ? value : a)))}
        readOnly={grade !== null}
        corrections={grade?.correction ?? null}
        announce={setLive}
        onClose={() => window.close()}
        before={
          <Hints hints={hints} canReveal={grade === null} onReveal={() => setHintsUsed((n) => n + 1)} />
        }
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      {grade ? (
        <section className="preview__result" aria-labelledby="preview-result-title">
          <h2 id="preview-result-title">
            {t('preview.score', { actual: grade.score.actual, max: grade.score.max })}
          </h2>
          {grade.feedbacks.length > 0 ? (
            <ul>
              {grade.feedbacks.map((f, i) => (
                <li key={i}>
                  <RichText html={f.message} />
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
      <div className="preview__actions">
        {hasExercises && grade === null ? <Button onClick={check}>{t('preview.check')}</Button> : null}
        {grade !== null ? (
          <Button variant="secondary" onClick={reset}>
            {t('preview.again')}
          </Button>
        ) : null}
      </div>
      <p className="sr-only" aria-live="polite">
        {live}
      </p>
    </div>
  );
}
