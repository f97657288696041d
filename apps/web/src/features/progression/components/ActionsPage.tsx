import { lessonHasEnded } from '@parcours/domain/progress';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/Spinner';
import { errorCodeOf } from '../../../lib/api-errors';
import { ContinueBar } from './ContinueBar';
import { useTranslation } from '../../../lib/i18n';
import { useLesson } from '../api/get-lesson';
import { openLesson } from '../open-lesson';
import { soleChoice, uniqueUnlockedLessons } from '../progression-model';
import { ChoiceGroup } from './ChoiceGroup';
import { ErrorDialog } from './ErrorDialog';
import { LessonScore } from './LessonScore';
import { LoadFailure } from './LoadFailure';
import '../progression.css';

/**
 * /session/{id}/actions (docs/product.md §2): the finished course, its score, and the lessons it unlocked.
 * Continue shows only when there is a lesson to go to, and waits for a pick when there are several.
 */
export function ActionsPage({ lessonId }: { lessonId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lesson = useLesson(lessonId);
  const [picked, setPicked] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  if (lesson.isPending) return <Spinner label={t('progression.loading')} />;
  if (lesson.isError) return <LoadFailure code={errorCodeOf(lesson.error)} error={lesson.error} />;

  const { attributes, courseTitle } = lesson.data;
  const ended = lessonHasEnded(attributes);
  const unlocked = uniqueUnlockedLessons(attributes.actions?.unlockedLessons);
  const chosen = picked ?? soleChoice(unlocked)?.id ?? null;

  const next = async () => {
    if (!chosen || opening) return;
    setOpening(true);
    try {
      void navigate(await openLesson(chosen));
    } catch (error) {
      setFailure(errorCodeOf(error));
      setOpening(false);
    }
  };

  return (
    <div className="page page--narrow progression">
      <div className="card progression__card">
        {/* A lesson left before its end is not "finished": say how far the learner got instead. */}
        <h1 className="progression__title">
          {t(ended ? 'progression.actions.title' : 'progression.actions.titleOngoing')}
        </h1>
        <p className="progression__course">
          {ended
            ? courseTitle
              ? t('progression.actions.finished', { title: courseTitle })
              : t('progression.actions.finishedUntitled')
            : courseTitle
              ? t('progression.actions.ongoing', {
                  title: courseTitle,
                  percent: attributes.percentProgression,
                })
              : t('progression.actions.ongoingUntitled', { percent: attributes.percentProgression })}
        </p>
        <LessonScore scoring={attributes.scoring} />
        {unlocked.length > 0 ? (
          <ChoiceGroup
            label={
              unlocked.length > 1 ? t('progression.actions.chooseMany') : t('progression.actions.chooseOne')
            }
            options={unlocked.map((l) => ({ value: l.id, label: l.title }))}
            value={chosen}
            onChange={setPicked}
            isDisabled={opening}
          />
        ) : (
          <p>{t('progression.actions.none')}</p>
        )}
        <ContinueBar
          show={unlocked.length > 0}
          ready={Boolean(chosen)}
          busy={opening}
          hint={t('progression.actions.pickFirst')}
          hintId="progression-continue-hint"
          onContinue={() => void next()}
        />
      </div>
      <ErrorDialog code={failure} onClose={() => void navigate('/')} />
    </div>
  );
}
