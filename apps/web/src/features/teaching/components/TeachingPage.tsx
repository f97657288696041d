import { timeAccommodationSchema } from '@parcours/domain/time-accommodation';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorCodeOf } from '../../../lib/api-errors';
import { useTranslation } from '../../../lib/i18n';
import { choiceOf, factorsFor, inputOf } from '../accommodation-choice';
import type { Choice } from '../accommodation-choice';
import { useClassLearners, useSetTimeAccommodation, useTaughtClasses } from '../api';
import type { ClassLearner } from '../api';
import '../teaching.css';

/**
 * /enseignement: the classes the user teaches; /enseignement/:classId: that class's learners
 * and their time accommodation (RGAA 13.1, decision 0019), which the teacher changes here.
 */
export function TeachingPage() {
  const { classId } = useParams();
  return classId ? <ClassLearners classId={classId} /> : <TaughtClasses />;
}

function TaughtClasses() {
  const { t } = useTranslation();
  const classes = useTaughtClasses();
  return (
    <div className="page page--narrow teaching">
      <h1>{t('teaching.title')}</h1>
      {classes.isPending ? <p role="status">{t('teaching.loading')}</p> : null}
      {classes.isError ? <p role="alert">{t(`errors.${errorCodeOf(classes.error)}.title`)}</p> : null}
      {classes.data?.length === 0 ? <p>{t('teaching.noClass')}</p> : null}
      {classes.data?.length ? (
        <ul className="teaching__classes">
          {classes.data.map((c) => (
            <li key={c.id}>
              <Link to={`/enseignement/${encodeURIComponent(c.id)}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

type Outcome = { tone: 'saved'; name: string } | { tone: 'error'; code: string } | null;

function ClassLearners({ classId }: { classId: string }) {
  const { t } = useTranslation();
  const learners = useClassLearners(classId);
  const name = useTaughtClasses().data?.find((c) => c.id === classId)?.name;
  const [outcome, setOutcome] = useState<Outcome>(null);
  return (
    <div className="page teaching">
      <p>
        <Link to="/enseignement">{t('teaching.back')}</Link>
      </p>
      <h1>{name ? t('teaching.classTitle', { name }) : t('teaching.classTitleUnnamed')}</h1>
      <p className="teaching__intro">{t('teaching.intro')}</p>
      {/* One region for the whole table: a save is said once, whichever row it came from. */}
      <div role="status" className="teaching__outcome">
        {outcome?.tone === 'saved' ? t('teaching.saved', { name: outcome.name }) : null}
      </div>
      {outcome?.tone === 'error' ? (
        <p role="alert" className="teaching__error">
          {t(`errors.${outcome.code}.title`)}
        </p>
      ) : null}
      {learners.isPending ? <p role="status">{t('teaching.loading')}</p> : null}
      {learners.isError ? <p role="alert">{t(`errors.${errorCodeOf(learners.error)}.title`)}</p> : null}
      {learners.data?.length === 0 ? <p>{t('teaching.noLearner')}</p> : null}
      {learners.data?.length ? (
        <table className="teaching__table">
          <caption>{t('teaching.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('teaching.learner')}</th>
              <th scope="col">{t('teaching.time')}</th>
              <th scope="col">
                <span className="sr-only">{t('teaching.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {learners.data.map((l) => (
              <LearnerRow key={l.userId} classId={classId} learner={l} onOutcome={setOutcome} />
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function LearnerRow({
  classId,
  learner,
  onOutcome,
}: {
  classId: string;
  learner: ClassLearner;
  onOutcome: (o: Outcome) => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const saved = choiceOf(learner.timeAccommodation);
  const [choice, setChoice] = useState<Choice>(saved);
  const mutation = useSetTimeAccommodation(classId);
  const format = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });

  const save = async () => {
    // The route's own schema: a choice the server would refuse is never sent.
    const input = timeAccommodationSchema.parse(inputOf(choice));
    onOutcome(null);
    try {
      await mutation.mutateAsync({ userId: learner.userId, input });
      onOutcome({ tone: 'saved', name: learner.displayName });
    } catch (error) {
      onOutcome({ tone: 'error', code: errorCodeOf(error) });
    }
  };

  return (
    <tr>
      <th scope="row" id={`${id}-name`}>
        {learner.displayName}
      </th>
      <td>
        <select
          aria-label={t('teaching.timeFor', { name: learner.displayName })}
          className="field__input"
          value={choice}
          onChange={(event) => setChoice(event.target.value)}
        >
          <option value="none">{t('teaching.none')}</option>
          {factorsFor(learner.timeAccommodation).map((f) => (
            <option key={f} value={String(f)}>
              {t('teaching.factor', { factor: format.format(f) })}
            </option>
          ))}
          <option value="unlimited">{t('teaching.unlimited')}</option>
        </select>
      </td>
      <td>
        <button
          type="button"
          className="btn btn--secondary"
          disabled={mutation.isPending || choice === saved}
          onClick={() => void save()}
          aria-describedby={`${id}-name`}
        >
          {t('teaching.save')}
        </button>
      </td>
    </tr>
  );
}
