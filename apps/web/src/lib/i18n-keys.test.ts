import type { ErrorCode } from '@parcours/domain/errors';
import { dynamicKey, errorKeys, t, type TranslationKey } from './i18n';
import type { KeysUnder } from './i18n-keys';

/**
 * Issue 26 item 5: the catalogue's keys are a type. These checks run at `tsc` (the
 * `@ts-expect-error` lines fail the build if the error goes away) and once more at run time.
 */
type Is<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const yes = <T extends true>(value: T) => value;

// Every error code of the domain has its title and message in the catalogue.
yes<Is<Exclude<`errors.${ErrorCode}.title`, TranslationKey>, never>>(true);
yes<Is<Exclude<`errors.${ErrorCode}.message`, TranslationKey>, never>>(true);
// A plural key is called by its base; the suffixed ones are keys too.
yes<Is<Extract<'offline.banner.offline', TranslationKey>, 'offline.banner.offline'>>(true);
yes<
  Is<
    Extract<'session.notice.sessionEnded', `session.notice.${KeysUnder<'session.notice'>}`>,
    'session.notice.sessionEnded'
  >
>(true);

describe('typed translation keys (issue 26 item 5)', () => {
  it('refuses at compile time a key missing from the catalogue, and a prefix that leads to none', () => {
    // @ts-expect-error 'session.nope' is in no catalogue
    expect(t('session.nope')).toBe('session.nope');
    // @ts-expect-error no key starts with 'nope.'
    expect(dynamicKey('nope', 'x')).toBe('nope.x');
    expect(t(dynamicKey('statistics.series', 'nope'))).toBe('statistics.series.nope');
  });

  it('types the error texts of a code', () => {
    expect(errorKeys('UNDEFINED')).toEqual({
      title: 'errors.UNDEFINED.title',
      message: 'errors.UNDEFINED.message',
    });
    expect(t(errorKeys('UNDEFINED').title)).not.toBe('errors.UNDEFINED.title');
  });
});
