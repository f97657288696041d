import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/lib/html';
import { notFoundHtml, verificationHtml } from '../../src/modules/certificates/verification';

const snapshot = {
  tenantName: 'École "A" & B',
  learnerName: '<img src=x onerror=alert(1)>',
  courseTitle: "L'atelier <script>",
  score: 700,
  endedAt: '2026-06-20T10:00:00.000Z',
  reference: 'REF-1',
  wording: 'attestation' as const,
};

describe('the verification page', () => {
  it('escapes every value it prints', () => {
    const html = verificationHtml(
      { status: 'valid', snapshot },
      'fr',
      '/api/certificates/x/verify?lang=en&a="b"',
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('École &quot;A&quot; &amp; B');
    expect(html).toContain('L&#39;atelier &lt;script&gt;');
    expect(html).toContain('href="/api/certificates/x/verify?lang=en&amp;a=&quot;b&quot;"');
    expect(html).toContain('Vérification d’une attestation');
  });

  it.each([
    ['valid', 'en', 'Valid'],
    ['revoked', 'en', 'Revoked'],
    ['revoked', 'fr', 'Révoqué'],
  ] as const)('says %s in %s', (status, locale, word) => {
    expect(verificationHtml({ status, snapshot }, locale, '/x')).toContain(`class="${status}">${word}<`);
  });

  it('has a bilingual not-found page', () => {
    expect(notFoundHtml('fr', '/x')).toContain('Document introuvable');
    expect(notFoundHtml('en', '/x')).toContain('Document not found');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });
});
