import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOCALES } from './entities';
import {
  VALIDATION_MESSAGES,
  contactSchema,
  documentationRequestSchema,
  evaluateSchema,
  loginSchema,
  passwordSchema,
  profileSchema,
  ratingRatio,
  resetPasswordSchema,
  usesSimplePassword,
  validationMessage,
} from './schemas';
import type { ProfileSchemaFlags } from './schemas';

/** First message per field path ('' for the root), or null when the input is valid. */
// Accepts classic and mini schemas alike (the login rule is a zod/mini schema).
function errorsOf(schema: z.core.$ZodType, input: unknown): Record<string, string> | null {
  const result = z.safeParse(schema, input);
  if (result.success) return null;
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    out[path] ??= issue.message;
  }
  return out;
}

describe('VALIDATION_MESSAGES', () => {
  const entries = Object.entries(VALIDATION_MESSAGES);

  it.each(entries)('%s has a non-empty text in every language', (_key, texts) => {
    for (const locale of LOCALES) {
      expect(texts[locale].trim()).not.toBe('');
    }
    expect(Object.keys(texts).sort()).toEqual([...LOCALES].sort());
  });

  it.each([
    ['validation.password.length', 'Taille requise entre 6 et 254 caractères'],
    [
      'validation.password.complexity',
      'Doit contenir au moins : une majuscule, une minuscule, un chiffre et un caractère spécial',
    ],
    ['validation.password.whitespace', 'Les espaces ne sont pas autorisés'],
    ['validation.password.required', 'Entrez votre nouveau mot de passe pour le changer'],
    ['validation.lastname.required', 'Entrez un nom'],
    ['validation.firstname.required', 'Entrez un prénom'],
    ['validation.email.invalid', 'Saisissez un e-mail valide'],
    ['validation.username.required', 'Entrez un pseudonyme'],
    ['validation.birthday.invalid', "Choisissez votre date d'anniversaire"],
    ['validation.contact.missingData', 'Des données sont manquantes pour satisfaire votre requète'],
  ] as const)('%s quotes SPEC §5 in French', (key, fr) => {
    expect(VALIDATION_MESSAGES[key].fr).toBe(fr);
  });

  it('every key starts with validation.', () => {
    for (const key of Object.keys(VALIDATION_MESSAGES)) expect(key).toMatch(/^validation\.[\w.]+$/);
  });

  it.each([
    ['validation.email.invalid', 'fr', 'Saisissez un e-mail valide'],
    ['validation.email.invalid', 'en', 'Enter a valid e-mail'],
    ['not.a.key', 'fr', 'not.a.key'],
    ['toString', 'en', 'toString'],
  ] as const)('validationMessage(%s, %s)', (key, locale, text) => {
    expect(validationMessage(key, locale)).toBe(text);
  });
});

/** Every message any schema can produce must be a catalogue key. */
function expectOnlyKeys(errors: Record<string, string> | null) {
  for (const message of Object.values(errors ?? {}))
    expect(Object.keys(VALIDATION_MESSAGES)).toContain(message);
}

describe('loginSchema', () => {
  it.each<[string, unknown, Record<string, string> | null]>([
    ['e-mail and password', { email: 'ada@example.org', password: 'x' }, null],
    ['a username is accepted', { email: 'ada42', password: 'secret' }, null],
    ['empty identifier', { email: '', password: 'x' }, { email: 'validation.login.identifier.required' }],
    ['blank identifier', { email: '   ', password: 'x' }, { email: 'validation.login.identifier.required' }],
    [
      'missing fields',
      {},
      { email: 'validation.login.identifier.required', password: 'validation.login.password.required' },
    ],
    ['empty password', { email: 'a', password: '' }, { password: 'validation.login.password.required' }],
    ['identifier too long', { email: 'a'.repeat(255), password: 'x' }, { email: 'validation.login.length' }],
    ['identifier of exactly 254', { email: 'a'.repeat(254), password: 'x' }, null],
    ['password too long', { email: 'a', password: 'x'.repeat(255) }, { password: 'validation.login.length' }],
    [
      'wrong types',
      { email: 1, password: null },
      { email: 'validation.login.identifier.required', password: 'validation.login.password.required' },
    ],
  ])('%s', (_label, input, expected) => {
    const errors = errorsOf(loginSchema, input);
    expect(errors).toEqual(expected);
    expectOnlyKeys(errors);
  });

  it.each([
    [
      { email: '  ada@example.org ', password: ' pass ' },
      { email: 'ada@example.org', password: ' pass ' },
    ],
  ])('trims the identifier but not the password', (input, output) => {
    expect(loginSchema.parse(input)).toEqual(output);
  });
});

describe('passwordSchema', () => {
  it.each<[string, unknown, string | null]>([
    ['strong', 'Abcde1!', null],
    ['exactly 6', 'Ab1!cd', null],
    ['exactly 254', `Ab1!${'x'.repeat(250)}`, null],
    ['accented capital counts as uppercase', 'Éabc1!', null],
    ['empty', '', 'validation.password.required'],
    ['undefined', undefined, 'validation.password.required'],
    ['5 characters', 'Ab1!c', 'validation.password.length'],
    ['255 characters', `Ab1!${'x'.repeat(251)}`, 'validation.password.length'],
    ['no uppercase', 'abcde1!', 'validation.password.complexity'],
    ['no lowercase', 'ABCDE1!', 'validation.password.complexity'],
    ['no digit', 'Abcdef!', 'validation.password.complexity'],
    ['no special character', 'Abcdef1', 'validation.password.complexity'],
    ['accented letter is not special', 'Abcdé1', 'validation.password.complexity'],
    ['space inside', 'Abc de1!', 'validation.password.whitespace'],
    ['leading space', ' Abcde1!', 'validation.password.whitespace'],
    ['tab', 'Abc\tde1!', 'validation.password.whitespace'],
  ])('%s', (_label, input, expected) => {
    const errors = errorsOf(passwordSchema(), input);
    expect(errors?.[''] ?? null).toBe(expected);
  });

  it.each<[string, unknown, string | null]>([
    ['6 lowercase letters', 'abcdef', null],
    ['spaces allowed', 'a b c d', null],
    ['5 characters', 'abcde', 'validation.password.minLength'],
    ['empty', '', 'validation.password.required'],
  ])('simple: %s', (_label, input, expected) => {
    const errors = errorsOf(passwordSchema({ simple: true }), input);
    expect(errors?.[''] ?? null).toBe(expected);
  });

  it('an empty password reports only the required message', () => {
    expect(
      passwordSchema()
        .safeParse('')
        .error?.issues.map((i) => i.message),
    ).toEqual(['validation.password.required']);
  });
});

describe('resetPasswordSchema', () => {
  it.each<[string, unknown, unknown]>([
    ['trims the field', { password: '  Abcde1!  ' }, { password: 'Abcde1!' }],
    ['plain', { password: 'Abcde1!' }, { password: 'Abcde1!' }],
  ])('%s', (_label, input, output) => {
    expect(resetPasswordSchema().parse(input)).toEqual(output);
  });

  it.each<[string, unknown, boolean | undefined, string]>([
    ['blank', { password: '   ' }, false, 'validation.password.required'],
    ['weak', { password: 'abcdef' }, false, 'validation.password.complexity'],
    ['simple too short', { password: ' abc ' }, true, 'validation.password.minLength'],
  ])('%s', (_label, input, simple, message) => {
    expect(errorsOf(resetPasswordSchema({ simple }), input)).toEqual({ password: message });
  });
});

describe('usesSimplePassword', () => {
  it.each<[boolean, boolean, boolean]>([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ])('invitation user %s, setting %s → %s', (fromCode, simple, expected) => {
    expect(
      usesSimplePassword(
        { isFromInvitationCode: fromCode },
        { invitationCodes: { enabled: true, simplePassword: simple } },
      ),
    ).toBe(expected);
  });
});

const ALL_FIELDS = { firstname: true, lastname: true, email: true, username: true, birthday: true };
const NO_FIELDS = { firstname: false, lastname: false, email: false, username: false, birthday: false };
const full = {
  lastname: 'Lovelace',
  firstname: 'Ada',
  email: 'ada@example.org',
  username: 'ada42',
  birthday: '1990-12-10',
};

describe('profileSchema', () => {
  it.each<[string, ProfileSchemaFlags, unknown, Record<string, string> | null]>([
    ['all fields valid', { fields: ALL_FIELDS }, full, null],
    [
      'names required',
      { fields: ALL_FIELDS },
      { ...full, lastname: '', firstname: ' ' },
      {
        lastname: 'validation.lastname.required',
        firstname: 'validation.firstname.required',
      },
    ],
    [
      'names missing',
      { fields: ALL_FIELDS },
      { email: 'ada@example.org' },
      {
        lastname: 'validation.lastname.required',
        firstname: 'validation.firstname.required',
      },
    ],
    [
      'names too short',
      { fields: ALL_FIELDS },
      { ...full, lastname: 'Lo', firstname: 'Al' },
      {
        lastname: 'validation.name.length',
        firstname: 'validation.name.length',
      },
    ],
    [
      'names of 3 and 60',
      { fields: ALL_FIELDS },
      { ...full, lastname: 'Abc', firstname: 'a'.repeat(60) },
      null,
    ],
    [
      'name of 61',
      { fields: ALL_FIELDS },
      { ...full, lastname: 'a'.repeat(61) },
      { lastname: 'validation.name.length' },
    ],
    [
      'length counts after trimming',
      { fields: ALL_FIELDS },
      { ...full, lastname: '  Lo  ' },
      { lastname: 'validation.name.length' },
    ],
    [
      'invalid e-mail',
      { fields: ALL_FIELDS },
      { ...full, email: 'ada@' },
      { email: 'validation.email.invalid' },
    ],
    ['missing e-mail', { fields: ALL_FIELDS }, { ...full, email: '' }, { email: 'validation.email.invalid' }],
    [
      'e-mail too long',
      { fields: ALL_FIELDS },
      { ...full, email: `${'a'.repeat(250)}@x.fr` },
      { email: 'validation.email.length' },
    ],
    ['username optional outside invitation', { fields: ALL_FIELDS }, { ...full, username: '' }, null],
    ['username null outside invitation', { fields: ALL_FIELDS }, { ...full, username: null }, null],
    [
      'username too short',
      { fields: ALL_FIELDS },
      { ...full, username: 'ab' },
      { username: 'validation.name.length' },
    ],
    ['birthday optional', { fields: ALL_FIELDS }, { ...full, birthday: '' }, null],
    [
      'birthday as ISO instant',
      { fields: ALL_FIELDS },
      { ...full, birthday: '1990-12-10T00:00:00.000Z' },
      null,
    ],
    [
      'birthday not a date',
      { fields: ALL_FIELDS },
      { ...full, birthday: 'yesterday' },
      { birthday: 'validation.birthday.invalid' },
    ],
    [
      'birthday impossible day',
      { fields: ALL_FIELDS },
      { ...full, birthday: '2023-02-29' },
      { birthday: 'validation.birthday.invalid' },
    ],
    [
      'birthday required with required data',
      { fields: ALL_FIELDS, requiredDatas: true },
      { ...full, birthday: '' },
      { birthday: 'validation.birthday.invalid' },
    ],
    ['hidden fields are not validated', { fields: NO_FIELDS }, { lastname: '', email: 'bad' }, null],
    [
      'required data adds hidden names and birthday',
      { fields: NO_FIELDS, requiredDatas: true },
      {},
      {
        lastname: 'validation.lastname.required',
        firstname: 'validation.firstname.required',
        birthday: 'validation.birthday.invalid',
      },
    ],
    [
      'invitation: username required',
      { fields: ALL_FIELDS, invitationRegistration: true },
      { ...full, username: '' },
      { username: 'validation.username.required' },
    ],
    [
      'invitation: username required even if hidden',
      { fields: NO_FIELDS, invitationRegistration: true },
      {},
      { username: 'validation.username.required' },
    ],
    [
      'invitation: e-mail optional',
      { fields: ALL_FIELDS, invitationRegistration: true },
      { ...full, email: '' },
      null,
    ],
    [
      'invitation: e-mail still checked when given',
      { fields: ALL_FIELDS, invitationRegistration: true },
      { ...full, email: 'nope' },
      { email: 'validation.email.invalid' },
    ],
    [
      'locked e-mail is not validated',
      { fields: ALL_FIELDS, emailLocked: true },
      { ...full, email: 'bad' },
      null,
    ],
    [
      'password change open: required',
      { fields: ALL_FIELDS, passwordChange: true },
      full,
      { password: 'validation.password.required' },
    ],
    [
      'password change open: rule applies',
      { fields: ALL_FIELDS, passwordChange: true },
      { ...full, password: 'abcdef' },
      { password: 'validation.password.complexity' },
    ],
    [
      'password change open: simple rule',
      { fields: ALL_FIELDS, passwordChange: true, simplePassword: true },
      { ...full, password: 'abcdef' },
      null,
    ],
    [
      'terms must be accepted',
      { fields: ALL_FIELDS, termsAcceptance: true },
      { ...full, acceptTerms: false },
      { acceptTerms: 'validation.terms.required' },
    ],
    ['terms accepted', { fields: ALL_FIELDS, termsAcceptance: true }, { ...full, acceptTerms: true }, null],
  ])('%s', (_label, flags, input, expected) => {
    const errors = errorsOf(profileSchema(flags), input);
    expect(errors).toEqual(expected);
    expectOnlyKeys(errors);
  });

  it.each<[string, ProfileSchemaFlags, unknown, unknown]>([
    [
      'trims and keeps shown fields',
      { fields: ALL_FIELDS },
      { ...full, lastname: ' Lovelace ', email: ' ada@example.org ' },
      full,
    ],
    [
      'drops hidden fields',
      { fields: { ...ALL_FIELDS, username: false, birthday: false } },
      full,
      {
        lastname: 'Lovelace',
        firstname: 'Ada',
        email: 'ada@example.org',
      },
    ],
    [
      'drops the locked e-mail',
      { fields: ALL_FIELDS, emailLocked: true },
      full,
      { ...full, email: undefined },
    ],
    [
      'never passes a password unless the change is open',
      { fields: ALL_FIELDS },
      { ...full, password: 'Abcde1!' },
      full,
    ],
    [
      'drops empty optional fields',
      { fields: ALL_FIELDS },
      { ...full, username: '', birthday: null },
      {
        ...full,
        username: undefined,
        birthday: undefined,
      },
    ],
  ])('output: %s', (_label, flags, input, output) => {
    // Empty optional fields come out as undefined, which JSON bodies drop; compare as sent.
    expect(stripUndefined(profileSchema(flags).parse(input))).toStrictEqual(stripUndefined(output));
  });

  it('hidden and unknown keys are absent from the output, not just undefined', () => {
    const parsed = profileSchema({ fields: { ...NO_FIELDS, lastname: true } }).parse({
      ...full,
      isAdmin: true,
    });
    expect(Object.keys(parsed)).toEqual(['lastname']);
  });
});

function stripUndefined(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('evaluateSchema', () => {
  it.each<[string, unknown, Record<string, string> | null]>([
    ['rating 1', { rating: 1 }, null],
    ['rating 5 with comment', { rating: 5, comment: 'Très bien' }, null],
    ['rating 0', { rating: 0 }, { rating: 'validation.evaluate.rating.required' }],
    ['rating missing', {}, { rating: 'validation.evaluate.rating.required' }],
    ['rating null', { rating: null }, { rating: 'validation.evaluate.rating.required' }],
    ['rating NaN', { rating: Number.NaN }, { rating: 'validation.evaluate.rating.required' }],
    ['rating negative', { rating: -1 }, { rating: 'validation.evaluate.rating.required' }],
    ['rating 6', { rating: 6 }, { rating: 'validation.evaluate.rating.max' }],
    ['empty comment', { rating: 3, comment: '' }, null],
    ['comment of 1000', { rating: 3, comment: 'a'.repeat(1000) }, null],
    [
      'comment of 1001',
      { rating: 3, comment: 'a'.repeat(1001) },
      { comment: 'validation.evaluate.comment.length' },
    ],
  ])('%s', (_label, input, expected) => {
    const errors = errorsOf(evaluateSchema, input);
    expect(errors).toEqual(expected);
    expectOnlyKeys(errors);
  });

  it.each([
    [5, 1],
    [4, 0.8],
    [1, 0.2],
  ])('ratingRatio(%d) = %d', (rating, ratio) => {
    expect(ratingRatio(rating)).toBeCloseTo(ratio, 12);
  });
});

describe('contactSchema', () => {
  it.each<[string, unknown, Record<string, string> | null]>([
    ['message only', { message: 'Bonjour' }, null],
    ['with subject and files', { subject: 'Question', message: 'Bonjour', fileIds: ['f1'] }, null],
    ['empty message', { message: '' }, { message: 'validation.contact.message.required' }],
    ['blank message', { message: '  \n ' }, { message: 'validation.contact.message.required' }],
    ['missing message', {}, { message: 'validation.contact.message.required' }],
    ['message too long', { message: 'a'.repeat(5001) }, { message: 'validation.contact.message.length' }],
    [
      'subject too long',
      { subject: 'a'.repeat(255), message: 'x' },
      { subject: 'validation.contact.subject.length' },
    ],
    ['empty file id', { message: 'x', fileIds: [''] }, { 'fileIds.0': 'validation.contact.missingData' }],
  ])('%s', (_label, input, expected) => {
    const errors = errorsOf(contactSchema, input);
    expect(errors).toEqual(expected);
    expectOnlyKeys(errors);
  });
});

describe('documentationRequestSchema', () => {
  it.each<[string, unknown, Record<string, string> | null]>([
    ['one file', { fileIds: ['f1'] }, null],
    ['files and message', { fileIds: ['f1', 'f2'], message: 'Merci' }, null],
    ['no file', { fileIds: [] }, { fileIds: 'validation.contact.missingData' }],
    ['files missing', {}, { fileIds: expect.any(String) as string }],
  ])('%s', (_label, input, expected) => {
    expect(errorsOf(documentationRequestSchema, input)).toEqual(expected);
  });
});
