/** Types for the JSON-LD libraries the credential tests call (they ship none). */
declare module 'jsonld' {
  type Loader = (
    url: string,
  ) => Promise<{ contextUrl: string | null; documentUrl: string; document: unknown }>;
  interface Options {
    safe?: boolean;
    documentLoader?: Loader;
    algorithm?: string;
    format?: string;
  }
  const jsonld: {
    expand(input: object, options?: Options): Promise<object[]>;
    canonize(input: object, options?: Options): Promise<string>;
  };
  export default jsonld;
}

declare module 'did-context' {
  const didContext: { CONTEXT_URL: string; CONTEXT: object };
  export default didContext;
}
