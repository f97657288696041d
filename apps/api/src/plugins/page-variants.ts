import { brotliCompressSync, constants } from 'node:zlib';
import type { ContextRow } from '../modules/contexts/repository';
import { toContextResource } from '../modules/contexts/service';
import { resourceDocument } from './jsonapi';
import { inlineStyleSources } from './page-styles';

/** The plain bytes of a page or file and its brotli and gzip copies (when made). */
export interface Variants {
  plain: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

/**
 * A page made here, with the CSP sources of its `<style>` elements (page-styles.ts): its
 * response's `style-src` allows those, by hash, and no other inline style.
 */
export interface Page extends Variants {
  styles: string[];
}

export const pageOf = (html: string, compress: (html: string) => Variants): Page => ({
  ...compress(html),
  styles: inlineStyleSources(html),
});

/** A page drawn for one learner: compressed on the request path, so at a cheap brotli level. */
export function compressedPrivatePage(html: string): Variants {
  const plain = Buffer.from(html, 'utf8');
  return {
    plain,
    br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
    gzip: null,
  };
}

/** The tenant's `contexts/current` document, as its route answers it (context-in-html.ts). */
export const contextDocument = (row: ContextRow) => resourceDocument(toContextResource(row), []);
