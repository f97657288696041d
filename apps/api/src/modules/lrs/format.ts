/**
 * The `format` parameter of GET statements (xAPI-Communication.md §2.1.3): `exact` returns
 * statements as stored; `ids` keeps only what identifies agents, groups, activities and verbs;
 * `canonical` keeps one language of each language map, the one the request's Accept-Language
 * prefers (else the first). Pure functions over the stored JSON.
 */
export type Format = 'exact' | 'ids' | 'canonical';
type Json = Record<string, unknown>;

const IFI = ['mbox', 'mbox_sha1sum', 'openid', 'account'] as const;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function idsOfActor(a: Json): Json {
  const out: Json = { objectType: a.objectType ?? 'Agent' };
  for (const k of IFI) if (a[k] !== undefined) out[k] = a[k];
  // An anonymous Group is identified by its members.
  if (a.objectType === 'Group' && !IFI.some((k) => a[k] !== undefined) && Array.isArray(a.member))
    out.member = (a.member as Json[]).map(idsOfActor);
  return out;
}

function idsOfObject(o: Json): Json {
  switch (o.objectType) {
    case 'Agent':
    case 'Group':
      return idsOfActor(o);
    case 'StatementRef':
      return o;
    case 'SubStatement':
      return idsOfStatement(o);
    default:
      return { id: o.id };
  }
}

function idsOfContext(c: Json): Json {
  const out: Json = { ...c };
  if (isObject(c.instructor)) out.instructor = idsOfActor(c.instructor);
  if (isObject(c.team)) out.team = idsOfActor(c.team);
  if (isObject(c.contextActivities)) {
    out.contextActivities = Object.fromEntries(
      Object.entries(c.contextActivities).map(([k, list]) => [
        k,
        (list as Json[]).map((a) => ({ id: a.id })),
      ]),
    );
  }
  return out;
}

function idsOfStatement(s: Json): Json {
  const out: Json = { ...s, actor: idsOfActor(s.actor as Json), verb: { id: (s.verb as Json).id } };
  out.object = idsOfObject(s.object as Json);
  if (isObject(s.context)) out.context = idsOfContext(s.context);
  if (isObject(s.authority)) out.authority = idsOfActor(s.authority);
  return out;
}

/** Accept-Language as tags by preference (RFC 9110 §12.5.4), `*` and q=0 left out. */
export function languagePreferences(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: (tag ?? '').trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.tag);
}

/** One entry of a language map: the preferred language, exact, then by its primary subtag. */
export function oneLanguage(map: Json, prefs: string[]): Json {
  const keys = Object.keys(map);
  if (keys.length <= 1) return map;
  const lower = keys.map((k) => k.toLowerCase());
  for (const p of prefs) {
    const exact = lower.indexOf(p);
    if (exact >= 0) return { [keys[exact] as string]: map[keys[exact] as string] };
    const primary = p.split('-')[0];
    const near = lower.findIndex((k) => k.split('-')[0] === primary);
    if (near >= 0) return { [keys[near] as string]: map[keys[near] as string] };
  }
  return { [keys[0] as string]: map[keys[0] as string] };
}

const LANGUAGE_MAPS = new Set(['display', 'name', 'description']);

/** Every language map (verb display, names, descriptions, components, attachments) down to one. */
function canonical(value: unknown, prefs: string[], key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v, prefs));
  if (!isObject(value)) return value;
  // Extensions are the client's own data: left alone.
  if (key === 'extensions') return value;
  if (LANGUAGE_MAPS.has(key) && Object.values(value).every((v) => typeof v === 'string'))
    return oneLanguage(value, prefs);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonical(v, prefs, k)]));
}

export function formatStatement(s: unknown, format: Format, acceptLanguage?: string): unknown {
  if (format === 'ids') return idsOfStatement(s as Json);
  if (format === 'canonical') return canonical(s, languagePreferences(acceptLanguage));
  return s;
}
