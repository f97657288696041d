import { apiFetch } from '../../../../lib/api-client';

/** A package page being played: what the launch call needs (docs/api.md "Packages"). */
export interface PackageLaunchRequest {
  lessonId: string;
  pageId: string;
  launch: string;
  /** cmi5: the AU's place in the course, and how it is launched (issue 39). */
  au?: number;
  launchMode?: 'Normal' | 'Browse' | 'Review';
}

/** The server's answer: the bridge's address on the packages origin (its credential in the #fragment). */
export interface PackageLaunch {
  url: string;
  origin: string;
  expiresAt: string;
}

/** Why a launch cannot be used (the player says so instead of opening a frame). */
export class UnsafeLaunchError extends Error {
  constructor(reason: string) {
    super(`package launch refused by the player: ${reason}`);
    this.name = 'UnsafeLaunchError';
  }
}

/**
 * The launch is checked before the frame opens: an http(s) address whose origin is the one
 * named, and never the app's own (a misconfigured installation would otherwise run a package's
 * code beside the learner's token; decision 0050).
 */
export function checkedLaunch(body: unknown, appOrigin: string): PackageLaunch {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.url !== 'string' || typeof b.origin !== 'string') throw new UnsafeLaunchError('malformed');
  let url: URL;
  try {
    url = new URL(b.url);
  } catch {
    throw new UnsafeLaunchError('not an absolute address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeLaunchError('not http(s)');
  if (url.origin !== b.origin) throw new UnsafeLaunchError('origin does not match the address');
  if (url.origin === appOrigin) throw new UnsafeLaunchError("the app's own origin");
  return { url: url.href, origin: url.origin, expiresAt: typeof b.expiresAt === 'string' ? b.expiresAt : '' };
}

/** POST /api/packages/launches: a fresh bridge address for this learner, page and launch. */
export async function launchPackage(request: PackageLaunchRequest): Promise<PackageLaunch> {
  const body = await apiFetch<unknown>('packages/launches', { method: 'POST', body: request });
  return checkedLaunch(body, window.location.origin);
}
