import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/Spinner';
import { errorCodeOf } from '../../../lib/api-errors';
import { ContinueBar } from './ContinueBar';
import { useTranslation } from '../../../lib/i18n';
import { useLesson } from '../api/get-lesson';
import { usePostAction } from '../api/post-action';
import { openLesson } from '../open-lesson';
import { actionInputs, allAnswered, initialAnswers, type InteractiveAction } from '../progression-model';
import { ChoiceGroup } from './ChoiceGroup';
import { ErrorDialog } from './ErrorDialog';
import { LessonScore } from './LessonScore';
import { LoadFailure } from './LoadFailure';
import '../progression.css';

/**
 * /session/{id}/questions (docs/product.md §2, §4): the score, then the lesson's question(s). The chosen
 * answer is sent, and the lesson it leads to opens like a chosen lesson.
 */
export function QuestionsPage({ lessonId }: { lessonId: string }) {
  const { t } = useTranslation();
  const lesson = useLesson(lessonId);

  if (lesson.isPending) return <Spinner label={t('progression.loading')} />;
  if (lesson.isError) return <LoadFailure code={errorCodeOf(lesson.error)} error={lesson.error} />;
  return (
    <Questions
      lessonId={lessonId}
      actions={lesson.data.attributes.actions?.interactive ?? []}
      scoring={lesson.data.attributes.scoring}
    />
  );
}

function Questions({
  lessonId,
  actions,
  scoring,
}: {
  lessonId: string;
  actions: readonly InteractiveAction[];
  scoring: Parameters<typeof LessonScore>[0]['scoring'];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const send = usePostAction(lessonId);
  const [answers, setAnswers] = useState(() => initialAnswers(actions));
  const [opening, setOpening] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = send.isPending || opening;
  const ready = allAnswered(answers);

  const next = async () => {
    if (busy) return;
    const inputs = actionInputs(answers);
    if (!inputs) return;
    setOpening(true);
    try {
      const target = await send.mutateAsync(inputs);
      void navigate(await openLesson(target.id));
    } catch (error) {
      setFailure(errorCodeOf(error));
      setOpening(false);
    }
  };

  return (
    <div className="page page--narrow progression">
      <div className="card progression__card">
        <h1 className="progression__title">{t('progression.questions.title')}</h1>
        <LessonScore scoring={scoring} />
        {actions.length === 0 ? <p>{t('progression.questions.none')}</p> : null}
        {actions.map((action, actionIdx) => (
          <ChoiceGroup
            key={actionIdx}
            label={action.label}
            options={action.choices.map((choice, choiceIdx) => ({
              value: String(choiceIdx),
              label: choice.response,
            }))}
            value={answers[actionIdx] == null ? null : String(answers[actionIdx])}
            onChange={(value) =>
              setAnswers((current) => current.map((answer, i) => (i === actionIdx ? Number(value) : answer)))
            }
            isDisabled={busy}
          />
        ))}
        <ContinueBar
          show={actions.length > 0}
          ready={ready}
          busy={busy}
          hint={t('progression.questions.pickFirst')}
          hintId="progression-answer-hint"
          onContinue={() => void next()}
        />
      </div>
      <ErrorDialog code={failure} onClose={() => void navigate('/')} />
    </div>
  );
}
