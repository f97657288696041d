/** An icon as Lucide's vanilla package gives it: the SVG's children, each `[tag, attributes]`. */
export type IconNode = readonly (readonly [
  tag: string,
  attrs: Readonly<Record<string, string | number | undefined>>,
])[];

/** A set of icons by the names content uses. */
export type IconSet = Readonly<Record<string, IconNode>>;
