import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/Alert';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { useCourseBlock } from '../api/get-course-block';
import { useCourseNode } from '../api/get-course-node';
import { getNextSiblingId } from '../api/get-course-nodes';
import { enterTriggersNext, rowsOf } from '../player-model';
import { HOME } from '../use-page-player';
import { BlockScreen } from './BlockScreen';
import { Countdown } from './Countdown';
import { Footer } from './Footer';
import { Hints } from './Hints';
import { MultiblockChooser } from './MultiblockChooser';
import { Toolbar } from './Toolbar';
import '../player.css';

/** Node-mode hints come with the block's public settings, when the server sends them. */
function hintMessages(settings: Record<string, unknown>): string[] {
  const list = Array.isArray(settings.hints) ? settings.hints : [];
  return list
    .map((h: unknown) =>
      typeof h === 'string'
        ? h
        : typeof h === 'object' && h !== null
          ? (h as { message?: unknown }).message
          : null,
    )
    .filter((m): m is string => typeof m === 'string');
}

/**
 * SPEC §2 node mode (/render/node/{id}): the node's block with its toolbar; a multiblock first
 * offers its blocks by numbered title. Nothing is graded or recorded here; Next goes to the next
 * node of the same parent, else home.
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
  const nextRef = useRef(goNext);
  useEffect(() => {
    nextRef.current = goNext;
  });
  const isTincan = block?.type === 'tincan';
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!enterTriggersNext(event, { isTincan, dialogOpen: false, enabled: block !== null })) return;
      event.preventDefault();
      void nextRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isTincan, block]);

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
  const hints = hintMessages(block.settings);
  const limit = Number(blockNode.attributes.settings.timeLimit ?? node.attributes.settings.timeLimit) || null;
  const rows = rowsOf(block);

  return (
    <div className="player player--node" ref={root}>
      <Toolbar
        seconds={null}
        countdown={
          limit ? <Countdown seconds={limit} restartKey={blockNode.id} onEnded={() => void goNext()} /> : null
        }
        resources={[]}
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
          hints.length > 0 ? (
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
          ) : null
        }
      />
      <Footer
        block={block}
        canPrevious={false}
        busy={busy}
        onNext={() => void goNext()}
        onDashboard={() => void navigate(HOME)}
        fullscreenTarget={root}
      />
      <div className="sr-only" role="status" aria-live="polite">
        {live}
      </div>
    </div>
  );
}
