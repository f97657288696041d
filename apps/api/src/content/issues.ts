/** Import problems: every one names its file and the path inside it (docs/content-format.md). */
export interface ImportIssue {
  file: string;
  path: string;
  message: string;
}

export type Push = (file: string, p: string, message: string) => void;

export function checkDuplicates(
  items: { id: string; file: string; path: string }[],
  what: string,
  issues: ImportIssue[],
): void {
  const seen = new Map<string, string>();
  for (const it of items) {
    const prev = seen.get(it.id);
    if (prev)
      issues.push({
        file: it.file,
        path: it.path,
        message: `duplicate ${what} id "${it.id}" (first in ${prev})`,
      });
    else seen.set(it.id, it.file);
  }
}
