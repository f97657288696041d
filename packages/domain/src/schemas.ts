/**
 * Form and route schemas (docs/product.md §5). Messages are i18n keys, never literal text: the web app
 * translates them with VALIDATION_MESSAGES (or its catalogues), the API returns them as-is.
 */
import { z } from 'zod';
import {
  COMMENT_MAX,
  EMAIL_MAX,
  EMAIL_MIN,
  MAX_RATING,
  NAME_MAX,
  NAME_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from './constants';
import type { ContextSettings, Locale } from './entities';

/** Every message key with its French and English text. French texts quote docs/product.md §5 verbatim. */
export const VALIDATION_MESSAGES = {
  'validation.login.identifier.required': {
    fr: 'Entrez votre e-mail ou votre pseudonyme',
    en: 'Enter your e-mail or username',
  },
  'validation.login.password.required': { fr: 'Entrez votre mot de passe', en: 'Enter your password' },
  'validation.login.length': {
    fr: 'Taille maximale : 254 caractères',
    en: 'Maximum length: 254 characters',
  },
  'validation.password.required': {
    fr: 'Entrez votre nouveau mot de passe pour le changer',
    en: 'Enter your new password to change it',
  },
  'validation.password.length': {
    fr: 'Taille requise entre 6 et 254 caractères',
    en: 'Length required between 6 and 254 characters',
  },
  'validation.password.minLength': {
    fr: 'Taille minimale requise : 6 caractères',
    en: 'Minimum length required: 6 characters',
  },
  'validation.password.complexity': {
    fr: 'Doit contenir au moins : une majuscule, une minuscule, un chiffre et un caractère spécial',
    en: 'Must contain at least: one uppercase letter, one lowercase letter, one digit and one special character',
  },
  'validation.password.whitespace': {
    fr: 'Les espaces ne sont pas autorisés',
    en: 'Spaces are not allowed',
  },
  'validation.lastname.required': { fr: 'Entrez un nom', en: 'Enter a last name' },
  'validation.firstname.required': { fr: 'Entrez un prénom', en: 'Enter a first name' },
  'validation.name.length': {
    fr: 'Taille requise entre 3 et 60 caractères',
    en: 'Length required between 3 and 60 characters',
  },
  'validation.email.invalid': { fr: 'Saisissez un e-mail valide', en: 'Enter a valid e-mail' },
  'validation.email.length': {
    fr: 'Taille requise entre 3 et 254 caractères',
    en: 'Length required between 3 and 254 characters',
  },
  'validation.username.required': { fr: 'Entrez un pseudonyme', en: 'Enter a username' },
  'validation.birthday.invalid': {
    fr: "Choisissez votre date d'anniversaire",
    en: 'Choose your date of birth',
  },
  'validation.terms.required': {
    fr: "Acceptez les conditions générales d'utilisation pour continuer",
    en: 'Accept the terms of use to continue',
  },
  'validation.evaluate.rating.required': { fr: 'Choisissez une note', en: 'Choose a rating' },
  'validation.evaluate.rating.max': {
    fr: 'La note maximale est de 5',
    en: 'The maximum rating is 5',
  },
  'validation.evaluate.comment.length': {
    fr: 'Le commentaire ne doit pas dépasser 1000 caractères',
    en: 'The comment must not exceed 1000 characters',
  },
  'validation.contact.message.required': { fr: 'Entrez un message', en: 'Enter a message' },
  'validation.contact.message.length': {
    fr: 'Le message ne doit pas dépasser 5000 caractères',
    en: 'The message must not exceed 5000 characters',
  },
  'validation.contact.subject.length': {
    fr: "L'objet ne doit pas dépasser 254 caractères",
    en: 'The subject must not exceed 254 characters',
  },
  'validation.contact.missingData': {
    // "requète" is spelled as docs/product.md §5 quotes it.
    fr: 'Des données sont manquantes pour satisfaire votre requète',
    en: 'Some data is missing to fulfil your request',
  },
} as const satisfies Record<string, Record<Locale, string>>;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

export function isValidationMessageKey(key: string): key is ValidationMessageKey {
  // hasOwn, not `in`: inherited names such as "toString" are not keys.
  return Object.hasOwn(VALIDATION_MESSAGES, key);
}

/** Text of a key in a language; an unknown key (e.g. a zod default message) is returned unchanged. */
export function validationMessage(key: string, locale: Locale): string {
  return isValidationMessageKey(key) ? VALIDATION_MESSAGES[key][locale] : key;
}

const msg = (key: ValidationMessageKey) => ({ error: key });
// Stops further checks so an empty field shows only its "required" message.
const required = (key: ValidationMessageKey) => ({ error: key, abort: true });

export const CONTACT_MESSAGE_MAX = 5_000;
export const CONTACT_SUBJECT_MAX = 254;

// ---------------------------------------------------------------- login

/** POST /users/login and the sign-in form. `email` also accepts a username. */
// The login rule lives in its own zod/mini module so the /login screen can load it alone.
export { loginSchema } from './login-schema';
export type { LoginInput } from './login-schema';

// ---------------------------------------------------------------- password

/** Unicode-aware so accented capitals count as uppercase and é is a letter, not a special character. */
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const DIGIT = /\p{Nd}/u;
const SPECIAL = /[^\p{L}\p{N}\s]/u;
const WHITESPACE = /\s/u;

export interface PasswordOptions {
  /** Invitation-code users on a tenant with simplePassword: only the 6-character minimum applies. */
  simple?: boolean;
}

/** docs/product.md §5 new-password rule (reset and profile). */
export function passwordSchema(opts: PasswordOptions = {}) {
  const base = z.string(msg('validation.password.required')).min(1, required('validation.password.required'));
  if (opts.simple) return base.min(PASSWORD_MIN, msg('validation.password.minLength'));
  return base
    .min(PASSWORD_MIN, msg('validation.password.length'))
    .max(PASSWORD_MAX, msg('validation.password.length'))
    .refine(
      (v) => UPPER.test(v) && LOWER.test(v) && DIGIT.test(v) && SPECIAL.test(v),
      msg('validation.password.complexity'),
    )
    .refine((v) => !WHITESPACE.test(v), msg('validation.password.whitespace'));
}

/** Whether the simple password rule applies to this user on this tenant (docs/product.md §5). */
export function usesSimplePassword(
  user: { isFromInvitationCode: boolean },
  settings: Pick<ContextSettings, 'invitationCodes'>,
): boolean {
  return user.isFromInvitationCode && settings.invitationCodes.simplePassword;
}

/** Password renewal form (/reset): the field is trimmed before the rule applies (docs/product.md §5). */
export function resetPasswordSchema(opts: PasswordOptions = {}) {
  return z.object({
    password: z.string(msg('validation.password.required')).trim().pipe(passwordSchema(opts)),
  });
}

// ---------------------------------------------------------------- profile

export interface ProfileSchemaFlags {
  /** Context flags: which fields the profile form shows (ContextSettings.profile.fields). */
  fields: ContextSettings['profile']['fields'];
  /** Registration with an invitation code: username required, e-mail optional and editable. */
  invitationRegistration?: boolean;
  /** The user already has an e-mail: it cannot be changed, so it is not part of the form. */
  emailLocked?: boolean;
  /** The change-password section is open; otherwise no password is ever sent. */
  passwordChange?: boolean;
  simplePassword?: boolean;
  /** Required profile data is due (needsRequiredDatas): last name, first name and birthday must be given. */
  requiredDatas?: boolean;
  /** The current terms version must be accepted. */
  termsAcceptance?: boolean;
}

const nameField = (requiredKey: ValidationMessageKey) =>
  z
    .string(msg(requiredKey))
    .trim()
    .min(1, required(requiredKey))
    .min(NAME_MIN, msg('validation.name.length'))
    .max(NAME_MAX, msg('validation.name.length'));

const emailField = z
  .string(msg('validation.email.invalid'))
  .trim()
  .min(1, required('validation.email.invalid'))
  .min(EMAIL_MIN, msg('validation.email.length'))
  .max(EMAIL_MAX, msg('validation.email.length'))
  .pipe(z.email(msg('validation.email.invalid')));

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });
/** A calendar date (YYYY-MM-DD, as date inputs give) or a full ISO instant (as the API stores). */
const birthdayField = z
  .string(msg('validation.birthday.invalid'))
  .trim()
  .refine(
    (v) => isoDate.safeParse(v).success || isoDateTime.safeParse(v).success,
    msg('validation.birthday.invalid'),
  );

/** Empty optional inputs (blank or null) mean "not given": dropped instead of failing their format check. */
function optionalField<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    schema.optional(),
  );
}

/**
 * Profile form and PATCH users/{id} body (docs/product.md §5). Fields the context hides are left out of
 * the object, so zod strips them from the output and they are never sent.
 */
/**
 * The profile schema's flags for a user on a tenant: the one rule the API's PATCH users/{id} and
 * the web's profile form both build their schema from (shared here so they cannot drift).
 */
export function profileFlagsOf(
  user: { email: string; isFromInvitationCode: boolean },
  settings: Pick<ContextSettings, 'invitationCodes' | 'profile' | 'requiredDatas'>,
  change: { passwordChange: boolean; termsAcceptance?: boolean },
): ProfileSchemaFlags {
  const invitationRegistration = settings.invitationCodes.enabled;
  return {
    fields: settings.profile.fields,
    invitationRegistration,
    // docs/product.md §5: the e-mail is disabled once set, unless invitation registration is on.
    emailLocked: !invitationRegistration && user.email.trim() !== '',
    passwordChange: change.passwordChange,
    simplePassword: usesSimplePassword(user, settings),
    requiredDatas: settings.requiredDatas,
    ...(change.termsAcceptance === undefined ? {} : { termsAcceptance: change.termsAcceptance }),
  };
}

export function profileSchema(flags: ProfileSchemaFlags) {
  const { fields } = flags;
  const invitation = flags.invitationRegistration === true;
  const needsData = flags.requiredDatas === true;
  const shape: Record<string, z.ZodType> = {};

  if (fields.lastname || needsData) shape.lastname = nameField('validation.lastname.required');
  if (fields.firstname || needsData) shape.firstname = nameField('validation.firstname.required');
  if ((fields.email && !flags.emailLocked) || invitation) {
    shape.email = invitation ? optionalField(emailField) : emailField;
  }
  if (fields.username || invitation) {
    shape.username = invitation
      ? nameField('validation.username.required')
      : optionalField(nameField('validation.username.required'));
  }
  if (fields.birthday || needsData) {
    shape.birthday = needsData ? birthdayField : optionalField(birthdayField);
  }
  if (flags.passwordChange) shape.password = passwordSchema({ simple: flags.simplePassword === true });
  if (flags.termsAcceptance) shape.acceptTerms = z.literal(true, msg('validation.terms.required'));

  // The shape is assembled at run time, so its static type is stated here rather than inferred.
  return z.object(shape) as unknown as z.ZodType<ProfileInput, ProfileFormValues>;
}

/** Parsed profile data: every field optional because the flags decide which ones exist. */
export interface ProfileInput {
  lastname?: string;
  firstname?: string;
  email?: string;
  username?: string;
  birthday?: string;
  password?: string;
  acceptTerms?: true;
}

/** Raw profile form values, before parsing. */
export interface ProfileFormValues {
  lastname?: string;
  firstname?: string;
  email?: string | null;
  username?: string | null;
  birthday?: string | null;
  password?: string;
  acceptTerms?: boolean;
}

// ---------------------------------------------------------------- evaluate

/** End-of-program evaluation (docs/product.md §5): a 1..5 rating and an optional comment. */
export const evaluateSchema = z.object({
  rating: z
    .number(msg('validation.evaluate.rating.required'))
    .min(1, msg('validation.evaluate.rating.required'))
    .max(MAX_RATING, msg('validation.evaluate.rating.max')),
  // docs/product.md §5 reads both "under 1000" and "at most 1000"; the counter shows count / 1000, so 1000 is allowed.
  comment: z.string().max(COMMENT_MAX, msg('validation.evaluate.comment.length')).optional(),
});
export type EvaluateInput = z.infer<typeof evaluateSchema>;

/** Review.ratio stored for a rating (docs/product.md §3, §9: rating / 5). */
export function ratingRatio(rating: number): number {
  return rating / MAX_RATING;
}

// ---------------------------------------------------------------- contact

const fileIds = z.array(z.string().trim().min(1, msg('validation.contact.missingData')));

/** Contact a user (subject and message), optionally with files: POST users/contact. */
export const contactSchema = z.object({
  subject: z.string().trim().max(CONTACT_SUBJECT_MAX, msg('validation.contact.subject.length')).optional(),
  message: z
    .string(msg('validation.contact.message.required'))
    .trim()
    .min(1, required('validation.contact.message.required'))
    .max(CONTACT_MESSAGE_MAX, msg('validation.contact.message.length')),
  fileIds: fileIds.optional(),
});
export type ContactInput = z.infer<typeof contactSchema>;

/** "Receive documentation by e-mail": at least one file, or the missing-data message (docs/product.md §5). */
export const documentationRequestSchema = z.object({
  message: z.string().trim().max(CONTACT_MESSAGE_MAX, msg('validation.contact.message.length')).optional(),
  fileIds: fileIds.min(1, msg('validation.contact.missingData')),
});
export type DocumentationRequestInput = z.infer<typeof documentationRequestSchema>;
