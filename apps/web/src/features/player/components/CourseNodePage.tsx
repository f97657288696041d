import { useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/Alert';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { useCourseBlock } from '../api/get-course-block';
import { useCourseNode } from '../api/get-course-node';
import { getNextSiblingId } from '../api/get-course-nodes';
import { useNodeGuidance, useNodeResources } from '../api/get-node-mode';
import { enterTriggersNext, rowsOf } from '../player-model';
import { HOME } from '../use-leave-lesson';
import { BlockScreen } from './BlockScreen';
import { Countdown } from './Countdown';
import { FeedbackDialog } from './Dialogs';
import { Footer } from './Footer';
import { Hints } from './Hints';
import { MultiblockChooser } from './MultiblockChooser';
import { Toolbar } from './Toolbar';
import '../player.css';

/**
 * docs/product.md §2 node mode (/render/node/{id}): the node's block with its toolbar (progression, resource
 * nodes, files, countdown, calculator); a multiblock first offers its blocks by numbered title.
 * Nothing is graded or recorded here. Hints are revealed by click (the free ones: decision 0018);
 * Next shows the block's general feedbacks one at a time (docs/product.md §4 Next flow), then goes to the
 * next node of the same parent, else home.
 */
export function CourseNodePage({ nodeId }: { nodeId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const nodeQuery = useCourseNode(nodeId);
  const [chosen, setChosen] = useState<string | null>(null);
  const [answers, setAnswers] = useState<Record<number, unknown>>({});
  const [revealed, setRevealed] = useState(0);
  const [live, setLive] = useState('');
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const node = nodeQuery.data?.node ?? null;
  const children = nodeQuery.data?.children ?? [];
  const isMulti = node?.attributes.kind === 'multiblock';
  const blockNode = isMulti ? (children.find((c) => c.id === chosen) ?? null) : node;
  const blockQuery = useCourseBlock(blockNode?.attributes.blockId ?? null);
  const block = blockQuery.data ?? null;
  const guidance = useNodeGuidance(blockNode?.id ?? null).data ?? null;
  const resources = useNodeResources(blockNode?.id ?? null).data ?? [];
  // The index of the feedback shown before going next, or null when none is open.
  const [feedbackAt, setFeedbackAt] = useState<number | null>(null);

  const goNext = async () => {
    if (!node || busy) return;
    setBusy(true);
    try {
      const nextId = await getNextSiblingId(node.id, node.attributes.parentId);
      void navigate(nextId ? `/render/node/${encodeURIComponent(nextId)}` : HOME);
    } catch {
      void navigate(HOME);
    } finally {
      setBusy(false);
    }
  };
  const feedbacks = guidance?.feedbacks ?? [];
  const onNext = () => {
    if (busy || feedbackAt !== null) return;
    if (feedbacks.length > 0) setFeedbackAt(0);
    else void goNext();
  };
  const closeFeedback = () => {
    if (feedbackAt === null) return;
    if (feedbackAt + 1 < feedbacks.length) return setFeedbackAt(feedbackAt + 1);
    setFeedbackAt(null);
    void goNext();
  };
  const nextRef = useRef(onNext);
  // A layout effect: the latest value is in place before the next event or timer, whatever
  // React's scheduling of plain effects (Enter right after ticking an answer must send it).
  useLayoutEffect(() => {
    nextRef.current = onNext;
  });
  const isTincan = block?.type === 'tincan';
  const dialogOpen = feedbackAt !== null;
  // Listening from the commit on (a layout effect): an Enter pressed as soon as the new node or
  // page showed must not be lost before a plain effect would run.
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!enterTriggersNext(event, { isTincan, dialogOpen, enabled: block !== null })) return;
      event.preventDefault();
      nextRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isTincan, block, dialogOpen]);

  if (nodeQuery.isError || blockQuery.isError)
    return (
      <Alert tone="error" title={t('errors.MODEL_NOT_FOUND.title')}>
        {t('player.node.notFound')}
      </Alert>
    );
  if (!node) return <Spinner label={t('player.loading')} />;

  if (isMulti && !blockNode)
    return (
      <div className="player player--node" ref={root}>
        <MultiblockChooser
          title={node.attributes.title}
          choices={children.map((c) => ({ id: c.id, title: c.attributes.title }))}
          onChoose={setChosen}
        />
      </div>
    );

  if (!block || !blockNode) return <Spinner label={t('player.loading')} />;
  const hints = guidance?.hints.messages ?? [];
  // Hints with a cost are paid for in the lesson, not read here (decision 0018).
  const paidHints = Math.max(0, (guidance?.hints.total ?? 0) - hints.length);
  // The server sends the learner's own limit (decision 0019): null when they have none, and then
  // no countdown starts, since its end would move them on to the next node.
  const limit = Number(blockNode.attributes.settings.timeLimit ?? node.attributes.settings.timeLimit) || null;
  const rows = rowsOf(block);

  return (
    <div className="player player--node" ref={root}>
      <Toolbar
        position={guidance?.position ?? null}
        progressLabel={t('player.node.progressLabel')}
        seconds={null}
        countdown={
          limit ? <Countdown seconds={limit} restartKey={blockNode.id} onEnded={() => void goNext()} /> : null
        }
        resources={resources}
        files={(blockNode.attributes.attachmentIds ?? []).map((id, i) => ({
          id,
          name: t('player.resources.document', { number: i + 1 }),
          download:
            blockNode.attributes.attachmentUrls?.[i] ?? `/api/files/${encodeURIComponent(id)}/download`,
        }))}
        calculator={Boolean(blockNode.attributes.tools.calculator ?? node.attributes.tools.calculator)}
      />
      <BlockScreen
        block={block}
        idPrefix={`n-${blockNode.id}`}
        headingRef={heading}
        answers={rows.map((_, i) => answers[i] ?? null)}
        onAnswer={(i, value) => setAnswers((all) => ({ ...all, [i]: value }))}
        readOnly={false}
        announce={setLive}
        onTincanAction={(action) => (action === 'next' ? void goNext() : void navigate(HOME))}
        onClose={() => void navigate(HOME)}
        before={
          hints.length > 0 || paidHints > 0 ? (
            <>
              <Hints
                hints={{
                  messages: hints.slice(0, revealed),
                  remaining: hints.length - revealed,
                  nextMalus: null,
                }}
                canReveal
                onReveal={() => {
                  setRevealed((n) => Math.min(hints.length, n + 1));
                  setLive(t('player.hints.revealed', { number: revealed + 1 }));
                }}
              />
              {paidHints > 0 ? (
                <p className="hints__note">{t('player.node.paidHints', { count: paidHints })}</p>
              ) : null}
            </>
          ) : null
        }
      />
      <Footer
        block={block}
        canPrevious={false}
        busy={busy}
        onNext={onNext}
        onDashboard={() => void navigate(HOME)}
        fullscreenTarget={root}
      />
      <div className="sr-only" role="status" aria-live="polite">
        {live}
      </div>
      {feedbackAt !== null ? (
        <FeedbackDialog
          feedbacks={feedbacks.map((f) => ({ ...f, source: 'general' as const, rowIndex: null }))}
          index={feedbackAt}
          onContinue={closeFeedback}
        />
      ) : null}
    </div>
  );
}
