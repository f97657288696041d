import { zodResolver } from '@hookform/resolvers/zod';
import { COMMENT_MAX, MAX_RATING } from '@parcours/domain/constants';
import { evaluateSchema, type EvaluateInput } from '@parcours/domain/schemas';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { ErrorPageRedirect } from '../../../lib/error-page';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/Alert';
import { ButtonLink } from '../../../components/ui/Button';
import { FormField } from '../../../components/ui/FormField';
import { RatingDisplay } from '../../../components/ui/rating/RatingDisplay';
import { Spinner } from '../../../components/ui/Spinner';
import { errorCodeOf, fieldProblems } from '../../../lib/api-errors';
import { errorKeys, useTranslation, keyFromData } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { getActiveLesson } from '../../../lib/storage';
import { lessonHasEnded } from '@parcours/domain/progress';
import { useQuery } from '@tanstack/react-query';
import { lessonQueryOptions, type EndedLesson } from '../api/get-lesson';
import { useProgramClass } from '../api/get-program-class';
import { useProgramReview, type ReviewResource } from '../api/get-reviews';
import { usePostReview } from '../api/post-review';
import { LessonScore } from './LessonScore';
import { LoadFailure } from './LoadFailure';
import { StarRating } from './StarRating';
import '../../../components/ui/form.css';
import '../progression.css';

/** docs/product.md §2: the rating form exists only for programs. */
const EVALUATED_TYPES = new Set(['program']);

type EvaluateForm = z.input<typeof evaluateSchema>;

/** /evaluate/{type}/{id} (docs/product.md §2, §4 Evaluate, §5): rate a finished program, once. */
export function EvaluatePage({ type, id }: { type: string; id: string }) {
  if (!EVALUATED_TYPES.has(type)) return <ErrorPageRedirect />;
  return <ProgramEvaluation programId={id} />;
}

function ProgramEvaluation({ programId }: { programId: string }) {
  const { t } = useTranslation();
  const userId = useSession().user?._id ?? '';
  const target = useProgramClass(programId);
  const existing = useProgramReview(programId, userId);
  // The lesson that just ended the program: its result stays on screen above the rating form.
  const activeLessonId = getActiveLesson()?.lessonId ?? null;
  const last = useQuery({ ...lessonQueryOptions(activeLessonId ?? ''), enabled: activeLessonId !== null });

  if (target.isPending || existing.isPending) return <Spinner label={t('progression.loading')} />;
  if (target.isError) return <LoadFailure code={errorCodeOf(target.error)} error={target.error} />;
  // A learner who does not follow the program cannot rate it (the server would refuse it too).
  if (!target.data.classId) return <LoadFailure code="Forbidden" />;
  return (
    <EvaluationForm
      programId={programId}
      programName={target.data.programName}
      classId={target.data.classId}
      userId={userId}
      // An unreadable "already rated?" answer must not block rating: the server has the last word.
      existing={existing.data ?? null}
      lastLesson={last.data && lessonHasEnded(last.data.attributes) ? last.data : null}
    />
  );
}

function EvaluationForm({
  programId,
  programName,
  classId,
  userId,
  existing,
  lastLesson,
}: {
  programId: string;
  programName: string | null;
  classId: string;
  userId: string;
  existing: ReviewResource | null;
  lastLesson: EndedLesson | null;
}) {
  const { t } = useTranslation();
  const send = usePostReview(userId);
  const counterId = useId();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<EvaluateForm, unknown, EvaluateInput>({
    resolver: zodResolver(evaluateSchema),
    defaultValues: existing
      ? {
          rating: Math.round(existing.attributes.ratio * MAX_RATING),
          comment: existing.attributes.comment ?? '',
        }
      : { rating: 0, comment: '' },
  });
  const comment = useWatch({ control, name: 'comment' }) ?? '';

  // docs/product.md §4: untouched → sending → success (form locked) or error; a review already given reads as done.
  const status = send.isPending
    ? 'sending'
    : send.isSuccess
      ? 'success'
      : send.isError
        ? 'error'
        : 'untouched';
  const locked = status === 'sending' || status === 'success' || existing !== null;
  const failure = send.isError ? errorCodeOf(send.error) : null;

  const onValid = async (values: EvaluateInput) => {
    try {
      await send.mutateAsync({ classId, programId, rating: values.rating, comment: values.comment });
    } catch (error) {
      // Field problems from the server go under their fields; the alert says the rest.
      for (const problem of fieldProblems(error)) {
        if (problem.field === 'ratio') setError('rating', { message: problem.key });
        if (problem.field === 'comment') setError('comment', { message: problem.key });
      }
    }
  };

  const ratingError = errors.rating?.message ? t(keyFromData(errors.rating.message)) : undefined;
  const commentError = errors.comment?.message ? t(keyFromData(errors.comment.message)) : undefined;

  return (
    <div className="page page--narrow progression">
      <div className="card progression__card">
        <h1 className="progression__title">{t('progression.evaluate.title')}</h1>
        {programName ? (
          <p className="progression__course">{t('progression.evaluate.program', { name: programName })}</p>
        ) : null}
        {lastLesson ? (
          <section className="progression__last" aria-labelledby="evaluate-last-lesson">
            <h2 id="evaluate-last-lesson" className="progression__subtitle">
              {lastLesson.courseTitle
                ? t('progression.evaluate.lastLesson', { title: lastLesson.courseTitle })
                : t('progression.evaluate.lastLessonUntitled')}
            </h2>
            <LessonScore scoring={lastLesson.attributes.scoring} />
          </section>
        ) : null}
        <p>{t('progression.evaluate.intro')}</p>

        {existing && status === 'untouched' ? (
          <Alert tone="info" title={t('progression.evaluate.alreadyTitle')}>
            <p>{t('progression.evaluate.alreadyText')}</p>
            <RatingDisplay percent={existing.attributes.ratio} message={t('rating.yours')} />
          </Alert>
        ) : null}

        <form className="evaluate-form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
          <Controller
            control={control}
            name="rating"
            render={({ field }) => (
              <StarRating
                name={field.name}
                value={field.value ?? 0}
                onChange={field.onChange}
                label={t('progression.evaluate.rating')}
                error={ratingError}
                isDisabled={locked}
              />
            )}
          />
          <FormField label={t('progression.evaluate.comment')} error={commentError}>
            {(controlProps) => (
              <>
                <textarea
                  {...controlProps}
                  {...register('comment')}
                  aria-describedby={[controlProps['aria-describedby'], counterId].filter(Boolean).join(' ')}
                  className="field__input evaluate-form__comment"
                  rows={5}
                  readOnly={locked}
                />
                <p
                  id={counterId}
                  className={
                    comment.length > COMMENT_MAX
                      ? 'evaluate-form__counter evaluate-form__counter--over'
                      : 'evaluate-form__counter'
                  }
                >
                  {t('progression.evaluate.counter', { count: comment.length, max: COMMENT_MAX })}
                </p>
              </>
            )}
          </FormField>

          {status === 'success' ? (
            <Alert tone="success" title={t('progression.evaluate.successTitle')}>
              <p>{t('progression.evaluate.successText')}</p>
            </Alert>
          ) : null}
          {failure ? (
            <Alert tone="error" title={t(errorKeys(failure).title)}>
              <p>{t(errorKeys(failure).message)}</p>
            </Alert>
          ) : null}

          <div className="progression__buttons">
            {status === 'success' || status === 'error' || existing ? (
              <ButtonLink to="/" variant="secondary">
                {t('common.backToDashboard')}
              </ButtonLink>
            ) : null}
            {locked && status !== 'sending' ? null : (
              <button type="submit" className="btn btn--primary" disabled={status === 'sending'}>
                {status === 'sending' ? t('progression.evaluate.sending') : t('progression.evaluate.submit')}
              </button>
            )}
          </div>
        </form>
      </div>
    </div>
  );
}
