/**
 * docs/product.md §2 "Preview and correction", §6 and §7 "Window messages": the back office opens or embeds
 * /preview or /correction, waits for our 'mounted' message, then posts a block (preview) or a
 * {page, lesson} pair (correction). A message is honoured only from a trusted origin: the app's
 * own origin and the tenant's configured back-office and app hosts. Anything else is refused
 * with both origins named, and a payload that does not parse is reported, never rendered.
 */
import { z } from 'zod';
import { BLOCK_TYPES } from './entities';
import { publicRowSchema } from './exercises/grade-page';
import { blockSolutionSchema } from './exercises/solution';

/** The message the preview and correction screens post to their opener or parent once ready. */
export const MOUNTED_MESSAGE = 'mounted';

const ORIGIN = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#\s]*@)?([^/?#\s:]+)(?::(\d+))?(?:[/?#]|$)/i;
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/**
 * `https://bo.example.com/path` → `https://bo.example.com`; a bare host gets https; junk → null.
 * Written by hand (the domain package runs without DOM or Node types): scheme and host lower
 * case, default ports dropped, as browsers serialise `MessageEvent.origin`.
 */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const m = ORIGIN.exec(url.includes('://') ? url : `https://${url}`);
  if (!m) return null;
  const scheme = (m[1] ?? '').toLowerCase();
  const host = (m[2] ?? '').toLowerCase();
  const port = m[3] && m[3] !== DEFAULT_PORTS[scheme] ? `:${m[3]}` : '';
  return `${scheme}://${host}${port}`;
}

/** Origins allowed to drive preview and correction, without duplicates, own origin first. */
export function trustedOrigins(
  selfOrigin: string,
  hosts: { backoffice?: string | null; app?: string | null } | null | undefined,
): string[] {
  const list = [selfOrigin, originOf(hosts?.backoffice), originOf(hosts?.app)].filter((o): o is string =>
    Boolean(o),
  );
  return [...new Set(list)];
}

const hintSchema = z.union([
  z.string().transform((message) => ({ message, cost: 0 })),
  z.object({ message: z.string(), cost: z.number().min(0).max(100).default(0) }),
]);

const termSchema = z.object({
  id: z.string().default(''),
  title: z.string(),
  words: z.array(z.string()),
  definition: z.string(),
});

/** A block as the back office sends it: the public block plus, for grading, its solution. */
export const previewBlockSchema = z.object({
  id: z.string().min(1).default('preview-block'),
  title: z.string().min(1),
  type: z.enum(BLOCK_TYPES),
  settings: z
    .looseObject({
      template: z
        .object({
          backToDashBoard: z.boolean().optional(),
          hideNextButton: z.boolean().optional(),
          hideMainTitle: z.boolean().optional(),
        })
        .optional(),
      hints: z.array(hintSchema).max(50).default([]),
    })
    .default({ hints: [] }),
  content: z.looseObject({
    statement: z
      .object({ html: z.string(), settings: z.record(z.string(), z.unknown()).optional() })
      .nullish(),
    sections: z
      .array(z.looseObject({ title: z.string().nullish(), rows: z.array(publicRowSchema).max(100) }))
      .max(50),
    tincan: z.object({ url: z.string() }).nullish(),
  }),
  solution: blockSolutionSchema.default({ feedbacks: [], validators: [] }),
  terms: z.array(termSchema).max(200).default([]),
});
export type PreviewBlock = z.infer<typeof previewBlockSchema>;

/** The course type settings the preview grades with (defaults: everything on). */
export const previewSettingsSchema = z
  .object({
    hints: z.boolean().default(true),
    feedbacks: z.boolean().default(true),
    retry: z.boolean().default(true),
  })
  .default({ hints: true, feedbacks: true, retry: true });

const previewPayloadSchema = z.object({ block: previewBlockSchema, settings: previewSettingsSchema });

export type PreviewMessage =
  | { kind: 'block'; block: PreviewBlock; settings: z.infer<typeof previewSettingsSchema> }
  | { kind: 'wrong-origin'; received: string; expected: string[] }
  | { kind: 'malformed'; issues: string[] }
  /** Our own 'mounted' echo, browser extensions' chatter: not for us, say nothing. */
  | { kind: 'ignored' };

const MAX_ISSUES = 10;

function issuesOf(error: z.ZodError): string[] {
  return error.issues
    .slice(0, MAX_ISSUES)
    .map((i) => `${i.path.length ? i.path.join('.') : '(message)'}: ${i.message}`);
}

/** Messages that are plainly not addressed to us (strings such as our own 'mounted', React devtools). */
function isNoise(data: unknown): boolean {
  if (typeof data === 'string') return true;
  if (data === null || typeof data !== 'object') return true;
  const source = (data as { source?: unknown }).source;
  return typeof source === 'string' && source.startsWith('react-devtools');
}

/** A block payload for /preview: `{ block, settings? }`, from a trusted origin only. */
export function parsePreviewMessage(
  event: { origin: string; data: unknown },
  trusted: readonly string[],
): PreviewMessage {
  if (isNoise(event.data)) return { kind: 'ignored' };
  if (!trusted.includes(event.origin))
    return { kind: 'wrong-origin', received: event.origin, expected: [...trusted] };
  const parsed = previewPayloadSchema.safeParse(event.data);
  if (!parsed.success) return { kind: 'malformed', issues: issuesOf(parsed.error) };
  return { kind: 'block', block: parsed.data.block, settings: parsed.data.settings };
}

const idSchema = z.union([
  z.string().min(1).max(200),
  z.object({ id: z.string().min(1).max(200) }).transform((o) => o.id),
]);

export type CorrectionMessage =
  | { kind: 'page'; page: string; lesson: string | null }
  | { kind: 'wrong-origin'; received: string; expected: string[] }
  | { kind: 'malformed'; issues: string[] }
  | { kind: 'ignored' };

/** A `{page, lesson}` pair for /correction (ids or objects with an id), from a trusted origin only. */
export function parseCorrectionMessage(
  event: { origin: string; data: unknown },
  trusted: readonly string[],
): CorrectionMessage {
  if (isNoise(event.data)) return { kind: 'ignored' };
  if (!trusted.includes(event.origin))
    return { kind: 'wrong-origin', received: event.origin, expected: [...trusted] };
  const parsed = z.object({ page: idSchema, lesson: idSchema.nullish() }).safeParse(event.data);
  if (!parsed.success) return { kind: 'malformed', issues: issuesOf(parsed.error) };
  return { kind: 'page', page: parsed.data.page, lesson: parsed.data.lesson ?? null };
}
