/**
 * How deeply `value` nests, walked without recursion (a recursive walk, JSON.stringify or a
 * schema would overflow the stack on a body 5 000 levels deep); stops past `limit`. The one guard
 * of every body that nests as its sender likes: xAPI statements (lrs/resource.ts) and a SCORM
 * commit's data (packages/origin.ts) — issue 40: it was written twice.
 */
export function depthOver(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (d >= limit) return true;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, d + 1]);
  }
  return false;
}
